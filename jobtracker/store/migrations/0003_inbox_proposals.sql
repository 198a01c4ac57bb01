-- Emails read from the user's Maildir (never written back), one row per distinct
-- message. `key` is the message's identity: its Message-ID, or `hash:<16 hex>` when
-- it has none, or `<Message-ID>#<12 hex>` for a later message that reuses a
-- Message-ID with different content (see docs/mail.md). The inbox task's unit_key
-- is 'm:' || key. The reading (state, evidence, summary) stays NULL until the inbox
-- task has read the message; a row with a reading is never asked again.
CREATE TABLE messages (
    key           TEXT PRIMARY KEY CHECK (key != ''),
    message_id    TEXT NOT NULL DEFAULT '',      -- normalized Message-ID, '' when absent
    content_hash  TEXT NOT NULL,                 -- headers + body, see mail.content_hash
    sender        TEXT NOT NULL DEFAULT '',      -- display form, cleaned
    sender_domain TEXT NOT NULL DEFAULT '',
    subject       TEXT NOT NULL DEFAULT '',
    sent_at       TEXT NOT NULL,                 -- UTC ISO: the Date header, else file mtime
    body          TEXT NOT NULL DEFAULT '',      -- plain text (HTML converted), bounded
    company       TEXT,                          -- linked company, NULL when unknown
    posting_id    INTEGER REFERENCES postings(id) ON DELETE SET NULL,
    link_reason   TEXT NOT NULL DEFAULT '',      -- how the link was found
    link_basis    TEXT NOT NULL DEFAULT '',      -- what it was linked against (Linker.basis)
    first_seen    TEXT NOT NULL,
    state         TEXT,                          -- the inbox reading; NULL while unread
    evidence      TEXT,
    summary       TEXT,
    model         TEXT,
    read_at       TEXT
);
CREATE INDEX messages_by_message_id ON messages (message_id) WHERE message_id != '';
-- The inbox queue: unread messages in date order.
CREATE INDEX messages_unread ON messages (sent_at, key) WHERE state IS NULL;

-- Which Maildir files a sync has already read, so an unchanged file costs a stat.
-- `name` is the file's unique part (before ':2,FLAGS'), so a mail reader moving it
-- from new/ to cur/ or flagging it does not make it look new.
CREATE TABLE maildir_files (
    name        TEXT PRIMARY KEY,
    size        INTEGER NOT NULL,
    mtime_ns    INTEGER NOT NULL,
    message_key TEXT NOT NULL REFERENCES messages(key) ON DELETE CASCADE
);

-- Changes the model proposes and only the user applies (docs/proposals.md).
-- One row per (task, unit_key, item): a rerun of a unit never duplicates one.
CREATE TABLE proposals (
    id             INTEGER PRIMARY KEY,
    kind           TEXT NOT NULL CHECK (kind IN ('status', 'resume_edit', 'letter')),
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
CREATE INDEX proposals_by_state ON proposals (state, id);
CREATE INDEX proposals_by_decision ON proposals (decision_seq) WHERE decision_seq IS NOT NULL;

-- Linking an email to a posting looks up ATS job ids found in its links; the
-- postings table's own unique index leads with board_id, so it cannot serve that.
CREATE INDEX postings_by_external_id ON postings (external_id);
