-- 0006 (PostgreSQL): the turn clock. A reminder knows when its turn began (`since`, for the
-- deadline) and whether the deadline's warning went out; `players` holds each player's
-- /notify choices.
ALTER TABLE reminders ADD COLUMN since double precision;
ALTER TABLE reminders ADD COLUMN warned boolean NOT NULL DEFAULT false;
CREATE TABLE players (
    user_id     text PRIMARY KEY,
    tz          text,
    quiet_start integer,
    quiet_end   integer,
    mode        text NOT NULL DEFAULT 'channel'
);
