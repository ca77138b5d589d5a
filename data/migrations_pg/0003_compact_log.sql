-- 0003 (PostgreSQL): a compact action log (data/delta.py). A row stores the change it made
-- (`delta`, JSON operations from the state before to the state after) and only every so often
-- the whole state before it (`state_before`, now the snapshot); `version` is the encounter
-- version its change read and `chain` counts the deltas since the snapshot. `undoable` says
-- whether /undo may take the row back (it was `state_before IS NOT NULL`). Rows written before
-- keep their whole state_before and read as snapshots.

ALTER TABLE actions ADD COLUMN delta text;
ALTER TABLE actions ADD COLUMN version bigint;
ALTER TABLE actions ADD COLUMN chain integer;
ALTER TABLE actions ADD COLUMN undoable boolean NOT NULL DEFAULT true;
UPDATE actions SET undoable = false WHERE state_before IS NULL;
