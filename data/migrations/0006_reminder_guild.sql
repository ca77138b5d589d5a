-- 0006: the guild of a reminder's encounter, so that a process running a slice of Discord's
-- shards claims only the reminders of its own guilds (SHARD_COUNT, SHARD_IDS).
ALTER TABLE reminders ADD COLUMN guild_id TEXT;
UPDATE reminders SET guild_id = (SELECT guild_id FROM encounters WHERE encounters.id = reminders.encounter_id);
