-- The pre-rank (docs/ranking.md): a text index over every posting's title and the start
-- of its description, and what the pre-rank pass read for each open posting.
--
-- postings_text: FTS5, contentless (content=''): the index alone is stored, never a
-- second copy of the text. Kept by the triggers below, whoever writes postings; a
-- contentless table forgets a row only when told the values it indexed, which the
-- triggers hand back from OLD. The body is the description's first 1,500 characters:
-- the role and its requirements come early, tokenising costs about 60 ns a character
-- on the development machine (a 10,000-posting fetch of 5 KB descriptions would pay
-- 3-7 s for the whole text), and a 1 MB description costs what a long one does.
-- (`porter` stems English words: pipelines and pipeline are one term.)
CREATE VIRTUAL TABLE postings_text USING fts5(
    title, body, content = '', tokenize = 'porter unicode61 remove_diacritics 2');

INSERT INTO postings_text (rowid, title, body)
    SELECT id, title, substr(description, 1, 1500) FROM postings;

-- preranks: per open posting, its score against the profile (query_hash names the
-- question: prose, levels, keywords) and whether its text refuses visa sponsorship
-- (the words that say so; NULL: it does not). A changed title or description drops
-- the row, so the next pass reads the posting again.
CREATE TABLE preranks (
    posting_id          INTEGER PRIMARY KEY REFERENCES postings(id) ON DELETE CASCADE,
    query_hash          TEXT NOT NULL,
    score               REAL NOT NULL,
    refuses_sponsorship TEXT
);
CREATE INDEX preranks_refusing ON preranks (posting_id) WHERE refuses_sponsorship IS NOT NULL;

-- The last full scoring: which question, over how many indexed postings. BM25 weighs a
-- word by how rare it is, so scores taken over a much smaller index are rescored.
CREATE TABLE prerank_state (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    query_hash TEXT NOT NULL,
    corpus     INTEGER NOT NULL
);

-- The index is kept in two steps. A new or changed posting is queued here by the
-- triggers below, and the pre-rank's pass (jobtracker/ranking/prerank.py, at the end of
-- a fetch and the start of a run) indexes the queue in one statement: measured at
-- 100,000 postings, 10,000 new ones cost 0.65 s indexed together and 1.4 s more one by
-- one inside the fetch's inserts. A posting's old entry is removed at once, while the
-- values it was indexed with are at hand; a queued posting has no entry to remove.
CREATE TABLE postings_text_todo (posting_id INTEGER PRIMARY KEY);

CREATE TRIGGER postings_text_on_insert AFTER INSERT ON postings
BEGIN
    INSERT OR IGNORE INTO postings_text_todo (posting_id) VALUES (NEW.id);
END;

CREATE TRIGGER postings_text_on_update AFTER UPDATE OF title, description ON postings
WHEN OLD.title IS NOT NEW.title OR OLD.description IS NOT NEW.description
BEGIN
    INSERT INTO postings_text (postings_text, rowid, title, body)
        SELECT 'delete', OLD.id, OLD.title, substr(OLD.description, 1, 1500)
        WHERE NOT EXISTS (SELECT 1 FROM postings_text_todo WHERE posting_id = OLD.id);
    INSERT OR IGNORE INTO postings_text_todo (posting_id) VALUES (NEW.id);
    DELETE FROM preranks WHERE posting_id = NEW.id;
END;

CREATE TRIGGER postings_text_on_delete AFTER DELETE ON postings
BEGIN
    INSERT INTO postings_text (postings_text, rowid, title, body)
        SELECT 'delete', OLD.id, OLD.title, substr(OLD.description, 1, 1500)
        WHERE NOT EXISTS (SELECT 1 FROM postings_text_todo WHERE posting_id = OLD.id);
    DELETE FROM postings_text_todo WHERE posting_id = OLD.id;
END;

-- The queue's covering index gains the columns profile.yaml's filters read (company,
-- first seen, salary): with filters set, a survey still reads index pages only. A
-- column outside it costs a read of the posting's row for every posting counted,
-- measured at 20,000 postings as 12 ms without filters and 520 ms with them.
DROP INDEX postings_queue;
CREATE INDEX postings_queue ON postings
    (job_open, title_level, description_source, location, remote, title, description_hash,
     company, first_seen, salary_currency, salary_max, salary_min);
