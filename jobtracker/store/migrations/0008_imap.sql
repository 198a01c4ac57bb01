-- IMAP, read-only (docs/mail.md). Per folder of an account: the UIDVALIDITY seen and
-- the highest UID whose message is stored, so a sync asks only for newer UIDs. A folder
-- whose UIDVALIDITY changed (recreated, restored) is read again from UID 1; messages are
-- keyed by Message-ID and content, so nothing already stored is stored twice.
CREATE TABLE imap_folders (
    account     TEXT NOT NULL,        -- user@host:port
    folder      TEXT NOT NULL,
    uidvalidity INTEGER NOT NULL,
    last_uid    INTEGER NOT NULL,
    synced_at   TEXT NOT NULL,
    PRIMARY KEY (account, folder)
);

-- 1 when only the first bytes of the message were fetched (an IMAP message over the
-- fetch cap): its content hash covers those bytes, so a copy read whole elsewhere
-- (the Maildir) is recognized by Message-ID instead.
ALTER TABLE messages ADD COLUMN partial INTEGER NOT NULL DEFAULT 0;
