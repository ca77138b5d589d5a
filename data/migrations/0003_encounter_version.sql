-- 0003: the encounter's version: every apply adds one, and a write lands only on the version
-- its command read (UPDATE ... WHERE id = ? AND version = ?), so no write is ever lost.

ALTER TABLE encounters ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
