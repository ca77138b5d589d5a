-- 0007: the turn clock. A reminder knows when its turn began (`since`, for the deadline) and
-- whether the deadline's warning went out; `players` holds each player's /notify choices.
ALTER TABLE reminders ADD COLUMN since REAL;
ALTER TABLE reminders ADD COLUMN warned INTEGER NOT NULL DEFAULT 0;
CREATE TABLE players (
    user_id     TEXT PRIMARY KEY,
    tz          TEXT,                -- IANA time zone name, e.g. Europe/Paris
    quiet_start INTEGER,             -- minutes after local midnight; NULL: no quiet hours
    quiet_end   INTEGER,
    mode        TEXT NOT NULL DEFAULT 'channel'   -- channel, dm or both
);
