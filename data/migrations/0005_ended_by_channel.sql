-- 0005: find a channel's most recently ended encounter (`/log` and `/encounter export` after
-- `/encounter end`) without reading every encounter.
CREATE INDEX encounters_channel_updated ON encounters (channel_id, updated_at);
