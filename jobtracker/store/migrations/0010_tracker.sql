-- The tracker: a status history per application, notes, and the `ghosted` status.
--
-- 1. `ghosted` joins the statuses. The CHECK listing them cannot be changed in place,
--    so the table is rebuilt (same columns). Dropping the old table with foreign keys
--    on (they cannot be switched off inside a migration's transaction) sets every
--    proposals.application_id to NULL, so those links are kept aside and put back.
CREATE TEMP TABLE tracker_links AS
    SELECT id, application_id FROM proposals WHERE application_id IS NOT NULL;
CREATE TABLE applications_new (
    id         INTEGER PRIMARY KEY,
    posting_id INTEGER UNIQUE REFERENCES postings(id),
    company    TEXT NOT NULL DEFAULT '',
    status     TEXT NOT NULL CHECK (status IN
               ('saved','applied','screening','interviewing','offer','rejected','withdrawn',
                'ghosted')),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
INSERT INTO applications_new (id, posting_id, company, status, created_at, updated_at)
    SELECT id, posting_id, company, status, created_at, updated_at FROM applications;
DROP TABLE applications;
ALTER TABLE applications_new RENAME TO applications;
UPDATE proposals SET application_id = (
    SELECT application_id FROM tracker_links WHERE tracker_links.id = proposals.id)
    WHERE id IN (SELECT id FROM tracker_links);
DROP TABLE tracker_links;

-- 2. Every status change, never overwritten: written only by jobtracker/applications.py.
--    source: 'hand' (the status command, the TUI picker), 'proposal' (accepting or
--    undoing one: proposal_id, and the evidence it quoted), 'prepare'. message_at is
--    the date of the email a proposal came from (an acknowledgement dates `applied`).
CREATE TABLE application_history (
    id             INTEGER PRIMARY KEY,
    application_id INTEGER NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
    at             TEXT NOT NULL,
    from_status    TEXT,                      -- NULL: the change created the application
    to_status      TEXT NOT NULL,
    source         TEXT NOT NULL CHECK (source IN ('hand', 'proposal', 'prepare')),
    proposal_id    INTEGER REFERENCES proposals(id) ON DELETE SET NULL,
    evidence       TEXT,
    message_at     TEXT
);
-- Covering what the list derives (first `applied`, last change), so it never reads the table.
CREATE INDEX application_history_by_application
    ON application_history (application_id, at, to_status, message_at);

-- Existing applications get their current status as a first history row, dated when
-- it was set; from the accepted proposal that set it when one did, else by hand.
INSERT INTO application_history (application_id, at, from_status, to_status, source,
                                 proposal_id, evidence, message_at)
    SELECT a.id, a.updated_at, NULL, a.status,
           CASE WHEN p.id IS NULL THEN 'hand' ELSE 'proposal' END, p.id,
           json_extract(p.payload, '$.evidence'), json_extract(p.payload, '$.message.date')
    FROM applications AS a
    LEFT JOIN proposals AS p ON p.id = (
        SELECT q.id FROM proposals AS q
        WHERE q.kind = 'status' AND q.state = 'accepted' AND json_valid(q.decision)
          AND json_extract(q.decision, '$.application_id') = a.id
          AND json_extract(q.decision, '$.status') = a.status
        ORDER BY q.decision_seq DESC LIMIT 1);

-- 3. Notes: several per application, timestamped, stored exactly as given. No cascade:
--    a note keeps its application from being deleted (undoing the accept that made it).
CREATE TABLE application_notes (
    id             INTEGER PRIMARY KEY,
    application_id INTEGER NOT NULL REFERENCES applications(id),
    at             TEXT NOT NULL,
    text           TEXT NOT NULL
);
CREATE INDEX application_notes_by_application ON application_notes (application_id, at);

-- 4. Mail linked to an application, by posting or (unlinked to a posting) by company:
--    the timeline and the last-contact date read these, never the whole table.
--    Both cover what the list asks (the latest and the first reply), state included.
CREATE INDEX messages_by_posting ON messages (posting_id, sent_at, state)
    WHERE posting_id IS NOT NULL;
CREATE INDEX messages_by_company ON messages (company COLLATE NOCASE, sent_at, state)
    WHERE posting_id IS NULL AND company IS NOT NULL;
