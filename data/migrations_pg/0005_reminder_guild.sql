-- 0005 (PostgreSQL): the guild of a reminder's encounter, so that a process running a slice of
-- Discord's shards claims only the reminders of its own guilds (SHARD_COUNT, SHARD_IDS).
ALTER TABLE reminders ADD COLUMN guild_id text;
UPDATE reminders r SET guild_id = e.guild_id FROM encounters e WHERE e.id = r.encounter_id;
