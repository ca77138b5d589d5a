-- 0007 (PostgreSQL): the action log keeps facts. A row of a rules command stores what it did as
-- JSON (`facts`: its events, the combatants hidden then and the condition words players were
-- shown), rendered for each reader by `/log`; `summary` holds text only for rows without facts
-- (a roll, an import, an undo) and for rows written before.
ALTER TABLE actions ADD COLUMN facts text;
