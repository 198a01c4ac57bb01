-- Decisions made together (the review's `A` or `X` on a group, `proposals accept 1 2 3`)
-- are one batch: the decision_seq of the first of them. One undo takes the batch back
-- whole. NULL for decisions made before this column, each then a batch of its own.
ALTER TABLE proposals ADD COLUMN decision_batch INTEGER;
