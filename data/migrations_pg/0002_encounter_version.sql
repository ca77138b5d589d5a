-- 0002 (PostgreSQL): the encounter's version: every apply adds one, and a write lands only on
-- the version its command read (UPDATE ... WHERE id = $1 AND version = $n, under a
-- transaction-scoped advisory lock on the encounter id), so two processes never lose a write.
-- A constant default: PostgreSQL 11+ adds the column without rewriting the table.

ALTER TABLE encounters ADD COLUMN version bigint NOT NULL DEFAULT 0;
