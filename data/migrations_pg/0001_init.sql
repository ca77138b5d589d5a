-- 0001 (PostgreSQL): encounters, the action log, reminders.
-- Run by data.postgres in one transaction that also records the version in schema_version.
--
-- The state columns are text, not jsonb: a state is always written and read whole and never
-- queried inside, so jsonb would only add a parse on every write and a re-serialisation on
-- every read; text keeps the row exactly as written (a state that does not read back is shown
-- as stored), and takes every string pydantic writes (jsonb refuses the escaped NUL, \u0000).

CREATE TABLE encounters (
    id               bigserial PRIMARY KEY,
    channel_id       text             NOT NULL,
    guild_id         text,
    system           text             NOT NULL,
    name             text,
    state            text             NOT NULL,   -- Encounter.model_dump_json()
    active           boolean          NOT NULL DEFAULT true,
    board_message_id text,
    created_at       double precision NOT NULL,
    updated_at       double precision NOT NULL
);

-- one active encounter per channel (a thread is a channel); also finds a channel's encounter
CREATE UNIQUE INDEX encounters_active_channel ON encounters (channel_id) WHERE active;

CREATE TABLE actions (
    id             bigserial PRIMARY KEY,
    encounter_id   bigint           NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    interaction_id text             CONSTRAINT actions_interaction_id_key UNIQUE,
    user_id        text,
    command        text,
    summary        text,
    dice           integer[]        NOT NULL DEFAULT '{}',
    dice_typed     integer[]        NOT NULL DEFAULT '{}',  -- indexes into dice typed with `roll:`
    state_before   text,                                    -- NULL when the row cannot be undone
    undone         boolean          NOT NULL DEFAULT false,
    created_at     double precision NOT NULL
);

-- an encounter's log newest first (log, last undoable), and its recent interaction ids read
-- from the index alone (an index-only scan backwards that stops after the newest 256)
CREATE INDEX actions_encounter ON actions (encounter_id, id) INCLUDE (interaction_id);

CREATE TABLE reminders (
    encounter_id bigint           PRIMARY KEY REFERENCES encounters (id) ON DELETE CASCADE,
    channel_id   text             NOT NULL,
    due_at       double precision NOT NULL,
    user_ids     text[]           NOT NULL,
    turn_key     text             NOT NULL,
    nudges       integer          NOT NULL DEFAULT 0
);

-- the reminder loop's question: what is due, soonest first
CREATE INDEX reminders_due ON reminders (due_at, encounter_id);
