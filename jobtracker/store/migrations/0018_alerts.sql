-- Job alerts (docs/alerts.md): the mail LinkedIn, Indeed and the others send, read by
-- `fetch` into postings on one board per sender (source 'alert', token 'linkedin' ...).
--
-- messages.alert: the sender ('linkedin', ...) of a job-alert mail the inbox's sync
-- stored; NULL for any other mail. The inbox task never reads one (its queue index
-- leaves them out) and the sync links it to no company: an alert names employers,
-- it is no employer's reply.
ALTER TABLE messages ADD COLUMN alert TEXT;
DROP INDEX messages_unread;
CREATE INDEX messages_unread ON messages (sent_at, key) WHERE state IS NULL AND alert IS NULL;

-- Each alert mail a fetch read, once, whichever mailbox held it: Message-ID (else a
-- hash of its bytes) as key. cards = 0: a mail from a known sender that gave no card
-- (not understood: its layout changed, or it is mail of a kind not read yet).
CREATE TABLE alert_mails (
    key       TEXT PRIMARY KEY CHECK (key != ''),
    sender    TEXT NOT NULL,
    template  TEXT NOT NULL DEFAULT '',
    subject   TEXT NOT NULL DEFAULT '',
    sent_at   TEXT NOT NULL,
    cards     INTEGER NOT NULL,
    skipped   INTEGER NOT NULL DEFAULT 0,     -- links and cards left out (unsafe, over a bound)
    read_at   TEXT NOT NULL
);

-- Which alert mails listed which posting ("seen in 3 LinkedIn alerts").
CREATE TABLE alert_sightings (
    posting_id INTEGER NOT NULL REFERENCES postings(id) ON DELETE CASCADE,
    mail_key   TEXT NOT NULL REFERENCES alert_mails(key) ON DELETE CASCADE,
    PRIMARY KEY (posting_id, mail_key)
) WITHOUT ROWID;
CREATE INDEX alert_sightings_by_mail ON alert_sightings (mail_key);

-- Where the alert reader got to in the mailboxes: its own marks, beside the inbox
-- sync's (maildir_files, imap_folders), so each reads every message once whichever
-- runs first. As for those: a Maildir file by the unique part of its name, size and
-- mtime; an IMAP folder by UIDVALIDITY and the highest UID read.
CREATE TABLE alert_maildir_files (
    name     TEXT PRIMARY KEY,
    size     INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL
);
CREATE TABLE alert_imap_folders (
    account     TEXT NOT NULL,
    folder      TEXT NOT NULL,
    uidvalidity INTEGER NOT NULL,
    last_uid    INTEGER NOT NULL,
    read_at     TEXT NOT NULL,
    PRIMARY KEY (account, folder)
);

-- Employer boards looked for on the ATSs jobtracker reads, one row per alert company
-- (its normalised name): no company is probed again within a week. `found` is a JSON
-- list of the boards that answered and the alert titles each lists.
CREATE TABLE board_probes (
    company_key TEXT PRIMARY KEY,
    company     TEXT NOT NULL,
    probed_at   TEXT NOT NULL,
    found       TEXT NOT NULL DEFAULT '[]'
);
