-- 0004: a compact action log (data/delta.py). A row stores the change it made (`delta`, JSON
-- operations from the state before to the state after) and only every so often the whole
-- state before it (`state_before`, now the snapshot); `version` is the encounter version its
-- change read and `chain` counts the deltas since the snapshot. `undoable` says whether
-- /undo may take the row back (it was `state_before IS NOT NULL`). Rows written before keep
-- their whole state_before and read as snapshots.

ALTER TABLE actions ADD COLUMN delta TEXT;
ALTER TABLE actions ADD COLUMN version INTEGER;
ALTER TABLE actions ADD COLUMN chain INTEGER;
ALTER TABLE actions ADD COLUMN undoable INTEGER NOT NULL DEFAULT 1;
UPDATE actions SET undoable = 0 WHERE state_before IS NULL;
