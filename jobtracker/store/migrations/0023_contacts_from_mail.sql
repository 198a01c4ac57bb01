-- The people who wrote about an application (jobtracker/contacts/people.py: _from_mail)
-- are read by sender and company, from messages linked to a company whose sender can
-- name a person (`Name <address>` or `address (Name)`). This index holds only those
-- messages, in the order the read groups them, so every list of matches, packet and
-- digest reads a few rows instead of scanning the mailbox (most mail is automatic, from
-- a bare address). The WHERE is the query's, term for term: SQLite uses a partial index
-- only for a query that implies it.
CREATE INDEX messages_people ON messages (sender, company, sent_at)
    WHERE company IS NOT NULL AND company != '' AND state IS NOT NULL
    AND state != 'not_application' AND (instr(sender, '<') OR instr(sender, '('));
