-- Dismissals: the user's "not for me" on a match, with a reason. One row per
-- dismissal, kept after an undismiss (`undismissed_at` set) so `learn` reads every
-- decision the user made, and what the posting looked like when they made it: the
-- verdict and score at that moment, never recomputed.
CREATE TABLE dismissals (
    id             INTEGER PRIMARY KEY,
    posting_id     INTEGER NOT NULL REFERENCES postings(id) ON DELETE CASCADE,
    reason         TEXT NOT NULL,
    note           TEXT NOT NULL DEFAULT '',
    verdict        TEXT,               -- the judge's verdict then (NULL: not judged)
    score          REAL,               -- the score then (NULL: not scored)
    dismissed_at   TEXT NOT NULL,
    undismissed_at TEXT                -- NULL while the dismissal stands
);
-- At most one standing dismissal per posting; the matches query reads this index.
CREATE UNIQUE INDEX dismissals_standing ON dismissals (posting_id) WHERE undismissed_at IS NULL;
