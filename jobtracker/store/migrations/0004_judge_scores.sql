-- What the judge task answered for a posting. One row per posting: a re-ask
-- replaces it. prose_hash and description_hash are the hashes of the profile
-- prose and of the description the model was shown; the judge's pending query
-- compares them with the hashes of what is stored now. description_hash is NULL
-- only in a row from before hashes were recorded: store.backfill stamps those on
-- connect, so a NULL is never read as "unknown, re-ask".
CREATE TABLE rankings (
    posting_id       INTEGER PRIMARY KEY REFERENCES postings(id) ON DELETE CASCADE,
    unit_key         TEXT NOT NULL,
    prose_hash       TEXT NOT NULL,
    description_hash TEXT,
    verdict          TEXT NOT NULL CHECK (verdict IN ('strong', 'good', 'partial', 'poor')),
    reasons          TEXT NOT NULL DEFAULT '[]',   -- JSON array of short strings
    meets            TEXT NOT NULL DEFAULT '[]',   -- JSON array: requirements the profile meets
    misses           TEXT NOT NULL DEFAULT '[]',   -- JSON array: requirements it misses
    model            TEXT NOT NULL DEFAULT '',
    ranked_at        TEXT NOT NULL
);
-- Keeps the backfill's "anything to stamp?" check O(1) on every connect.
CREATE INDEX rankings_unhashed ON rankings (posting_id) WHERE description_hash IS NULL;

-- A posting's score: arithmetic over its ranking and deterministic features,
-- weighted by profile.yaml's weights. parts holds every term, so a score can
-- always be shown as the sum it is.
CREATE TABLE scores (
    posting_id INTEGER PRIMARY KEY REFERENCES postings(id) ON DELETE CASCADE,
    score      REAL NOT NULL,
    parts      TEXT NOT NULL,                     -- JSON object: name -> value, weight, points, basis
    scored_at  TEXT NOT NULL
);
CREATE INDEX scores_by_score ON scores (score DESC);
