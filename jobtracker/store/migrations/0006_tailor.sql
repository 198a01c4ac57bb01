-- What the tailor task answered for a posting (its edits are proposals). One row per
-- posting: a re-ask replaces it. The hashes are those of resume.md, keywords.yaml
-- and the description the model was shown; tailor's pending query compares them
-- with the hashes of what is there now, so a changed resume or keyword list re-asks
-- every posting and a changed description re-asks that posting only.
CREATE TABLE resume_suggestions (
    posting_id       INTEGER PRIMARY KEY REFERENCES postings(id) ON DELETE CASCADE,
    unit_key         TEXT NOT NULL,
    resume_hash      TEXT NOT NULL,
    keywords_hash    TEXT NOT NULL,
    description_hash TEXT NOT NULL,
    edits            INTEGER NOT NULL,      -- edits that survived grounding (proposed)
    dropped          INTEGER NOT NULL,      -- edits grounded out
    model            TEXT NOT NULL DEFAULT '',
    tailored_at      TEXT NOT NULL
);

-- What the coverletter task answered for a posting (the letter is a proposal).
CREATE TABLE cover_letters (
    posting_id       INTEGER PRIMARY KEY REFERENCES postings(id) ON DELETE CASCADE,
    unit_key         TEXT NOT NULL,
    template_hash    TEXT NOT NULL,
    resume_hash      TEXT NOT NULL,
    keywords_hash    TEXT NOT NULL,
    description_hash TEXT NOT NULL,
    paragraphs       INTEGER NOT NULL,      -- paragraphs kept
    dropped          INTEGER NOT NULL,      -- paragraphs grounded out
    model            TEXT NOT NULL DEFAULT '',
    written_at       TEXT NOT NULL
);

-- Files jobtracker wrote into the workspace on accept (tailored/, letters/), with
-- the hash of what it wrote: it overwrites or removes only a file that still holds
-- exactly that, never one the user changed or made by hand.
CREATE TABLE written_files (
    path         TEXT PRIMARY KEY,          -- relative to the workspace, e.g. tailored/3-acme.md
    posting_id   INTEGER,
    content_hash TEXT NOT NULL,
    written_at   TEXT NOT NULL
);
