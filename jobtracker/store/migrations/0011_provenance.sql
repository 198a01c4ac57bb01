-- Provenance: which model and which prompt wrote each stored answer. `prompt_version`
-- is the asking task's Task.prompt_version (a hash of its system prompt and answer
-- schema). NULL in a row written before this migration means "unknown": such an
-- answer stays as it is until `work --reask-stale-prompts` asks it again.
-- `model` already exists on the answer tables; proposals gain it here.
ALTER TABLE level_readings ADD COLUMN prompt_version TEXT;
ALTER TABLE rankings ADD COLUMN prompt_version TEXT;
ALTER TABLE messages ADD COLUMN prompt_version TEXT;
ALTER TABLE resume_suggestions ADD COLUMN prompt_version TEXT;
ALTER TABLE cover_letters ADD COLUMN prompt_version TEXT;
ALTER TABLE proposals ADD COLUMN model TEXT;
ALTER TABLE proposals ADD COLUMN prompt_version TEXT;
