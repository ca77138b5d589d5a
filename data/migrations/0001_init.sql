-- 0001: encounters, the action log, reminders.
-- Run by data.sqlite inside one transaction that also sets PRAGMA user_version = 1.

CREATE TABLE encounters (
    id               INTEGER PRIMARY KEY,
    channel_id       TEXT    NOT NULL,
    guild_id         TEXT,
    system           TEXT    NOT NULL,
    name             TEXT,
    state            TEXT    NOT NULL,           -- Encounter.model_dump_json()
    active           INTEGER NOT NULL DEFAULT 1,
    board_message_id TEXT,
    created_at       REAL,
    updated_at       REAL
);

-- one active encounter per channel (a thread is a channel)
CREATE UNIQUE INDEX encounters_active_channel ON encounters (channel_id) WHERE active = 1;

CREATE TABLE actions (
    id             INTEGER PRIMARY KEY,
    encounter_id   INTEGER NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    interaction_id TEXT UNIQUE,
    user_id        TEXT,
    command        TEXT,
    summary        TEXT,
    dice           TEXT,                         -- JSON list of ints
    state_before   TEXT,                         -- JSON, NULL when the row cannot be undone
    undone         INTEGER NOT NULL DEFAULT 0,
    created_at     REAL
);

CREATE INDEX actions_encounter ON actions (encounter_id, id);

CREATE TABLE reminders (
    encounter_id INTEGER PRIMARY KEY REFERENCES encounters ON DELETE CASCADE,
    channel_id   TEXT,
    due_at       REAL,
    user_ids     TEXT,                           -- JSON list of user ids
    turn_key     TEXT,
    nudges       INTEGER DEFAULT 0
);

CREATE INDEX reminders_due ON reminders (due_at);
