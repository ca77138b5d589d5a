-- 0002: which of a log row's dice the caller typed with `roll:` (the rest the bot rolled).
-- A JSON list of indexes into `dice`; NULL on rows written before it (read as none typed).

ALTER TABLE actions ADD COLUMN dice_typed TEXT;
