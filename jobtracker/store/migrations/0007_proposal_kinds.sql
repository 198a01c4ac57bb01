-- Proposal kinds are a registry in code (jobtracker/proposals/): a new kind is one
-- module there. The CHECK listing the kinds in the schema made every new kind a
-- migration too; `proposals.create` refuses an unregistered kind instead.
-- SQLite cannot drop a CHECK in place: rebuild the table, same columns and indexes.
CREATE TABLE proposals_new (
    id             INTEGER PRIMARY KEY,
    kind           TEXT NOT NULL,
    task           TEXT NOT NULL,
    unit_key       TEXT NOT NULL,
    item           INTEGER NOT NULL DEFAULT 0,
    posting_id     INTEGER REFERENCES postings(id) ON DELETE SET NULL,
    application_id INTEGER REFERENCES applications(id) ON DELETE SET NULL,
    payload        TEXT NOT NULL DEFAULT '{}',   -- JSON object, shape per kind
    input_hash     TEXT NOT NULL DEFAULT '',     -- hash of the inputs it was made from
    summary        TEXT NOT NULL DEFAULT '',     -- one line for people
    state          TEXT NOT NULL DEFAULT 'pending'
                   CHECK (state IN ('pending', 'accepted', 'rejected')),
    created_at     TEXT NOT NULL,
    decided_at     TEXT,
    decision       TEXT,                         -- JSON: what accept changed, for undo
    decision_seq   INTEGER,                      -- orders decisions; undo takes the largest
    UNIQUE (task, unit_key, item)
);
INSERT INTO proposals_new (id, kind, task, unit_key, item, posting_id, application_id,
                           payload, input_hash, summary, state, created_at, decided_at,
                           decision, decision_seq)
    SELECT id, kind, task, unit_key, item, posting_id, application_id, payload, input_hash,
           summary, state, created_at, decided_at, decision, decision_seq FROM proposals;
DROP TABLE proposals;
ALTER TABLE proposals_new RENAME TO proposals;
CREATE INDEX proposals_by_state ON proposals (state, id);
CREATE INDEX proposals_by_decision ON proposals (decision_seq) WHERE decision_seq IS NOT NULL;
