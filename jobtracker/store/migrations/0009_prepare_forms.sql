-- Application forms, cached per posting for `jobtracker prepare` (docs/prepare.md).
-- `description_hash` is the posting's when the form was read: a changed description
-- means the form is read again. A failed read keeps its error and no form; the
-- packet then uses the standard set, and the next prepare tries again.
CREATE TABLE forms (
    posting_id       INTEGER PRIMARY KEY REFERENCES postings(id) ON DELETE CASCADE,
    description_hash TEXT NOT NULL DEFAULT '',
    url              TEXT NOT NULL DEFAULT '',
    form             TEXT,                  -- JSON (jobtracker.prepare.forms.Form), NULL when it failed
    error            TEXT,                  -- why the last read failed, NULL when it worked
    fetched_at       TEXT NOT NULL
);
