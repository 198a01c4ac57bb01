-- Contacts: people the user knows, imported from a CSV (LinkedIn's Connections.csv or
-- a spreadsheet's). Nothing here leaves the machine. `source` names the import it came
-- from ('linkedin', or the file's name); importing the same source again replaces its
-- rows. `company_key` is the company as mail linking compares names
-- (jobtracker.mail.link.normalize_company: lower case, legal suffix and punctuation
-- gone), so "Acme, Inc." and "ACME inc" meet and "Acme Robotics" stays apart.
-- People who wrote to the user about an application are contacts too, but derived
-- from the messages table, never copied here.
CREATE TABLE contacts (
    id           INTEGER PRIMARY KEY,
    source       TEXT NOT NULL,
    name         TEXT NOT NULL,
    company      TEXT NOT NULL DEFAULT '',
    company_key  TEXT NOT NULL DEFAULT '',
    position     TEXT NOT NULL DEFAULT '',
    email        TEXT NOT NULL DEFAULT '',
    url          TEXT NOT NULL DEFAULT '',
    connected_on TEXT,                     -- YYYY-MM-DD, NULL when the file gave none
    line         INTEGER NOT NULL,         -- the file's line it was read from
    imported_at  TEXT NOT NULL
);
CREATE INDEX contacts_by_company ON contacts (company_key, name);
CREATE INDEX contacts_by_source ON contacts (source);
