-- One posting per job (docs/sources.md, "One posting per job"). Postings that are the
-- same job (an aggregator item and the company's ATS posting, a repost with a new id)
-- form a group. The group is led by its first posting (the smallest id); the others
-- point at it through lead_id. The leader alone is judged, scored and listed, so its
-- verdict, application and history stand for the whole job.
--
-- job_key: the normalised "company|title" the grouping pass compares (jobtracker/
--   samejob.py), written with the posting by upsert; '' when another writer left it
--   out (the pass then computes it).
-- lead_id: NULL for a leader (a posting alone leads a group of one).
-- job_open: 1 when the posting stands for an open job: it leads its group, and it or
--   a member is open. The queue and `matches` read this instead of closed_at, so a
--   reposted job stays open on the leader that holds its verdict. Kept by triggers,
--   whoever writes closed_at or lead_id; they write a row only when its value changes
--   (a row rewrite carries its long description). A writer that already knows the
--   value (the grouping pass, making a member) sets it in the same UPDATE.
ALTER TABLE postings ADD COLUMN job_key TEXT NOT NULL DEFAULT '';
ALTER TABLE postings ADD COLUMN lead_id INTEGER REFERENCES postings(id) ON DELETE SET NULL;
ALTER TABLE postings ADD COLUMN job_open INTEGER NOT NULL DEFAULT 1;
UPDATE postings SET job_open = (closed_at IS NULL);

-- Covering for the pass's lookup: the columns sit after the description, and reading
-- them from the row would cost its long text.
CREATE INDEX postings_by_job_key ON postings (job_key, board_id, lead_id, closed_at);
CREATE INDEX postings_by_lead ON postings (lead_id) WHERE lead_id IS NOT NULL;

-- The covering index of the derived queue leads with job_open now (it led with
-- closed_at): same columns otherwise, so a survey still reads index pages only.
DROP INDEX postings_queue;
CREATE INDEX postings_queue ON postings
    (job_open, title_level, description_source, location, remote, title, description_hash);

CREATE TRIGGER postings_job_open_on_insert AFTER INSERT ON postings
WHEN NEW.closed_at IS NOT NULL OR NEW.lead_id IS NOT NULL
BEGIN
    UPDATE postings SET job_open = NOT job_open
    WHERE id IN (NEW.id, NEW.lead_id) AND job_open IS NOT (
        lead_id IS NULL AND (closed_at IS NULL OR EXISTS (
            SELECT 1 FROM postings AS m WHERE m.lead_id = postings.id AND m.closed_at IS NULL)));
END;

CREATE TRIGGER postings_job_open_on_update AFTER UPDATE OF closed_at, lead_id ON postings
WHEN OLD.closed_at IS NOT NEW.closed_at OR OLD.lead_id IS NOT NEW.lead_id
BEGIN
    UPDATE postings SET job_open = NOT job_open
    WHERE id IN (NEW.id, NEW.lead_id, OLD.lead_id) AND job_open IS NOT (
        lead_id IS NULL AND (closed_at IS NULL OR EXISTS (
            SELECT 1 FROM postings AS m WHERE m.lead_id = postings.id AND m.closed_at IS NULL)));
END;

-- The grouping pass's work list: postings new, changed (company, title, description)
-- or just closed (the job may be back under a new id listed beside it). A row here
-- costs far less than rewriting the wide postings row to flag it.
CREATE TABLE grouping_todo (posting_id INTEGER PRIMARY KEY);

CREATE TRIGGER postings_regroup_on_insert AFTER INSERT ON postings
BEGIN
    INSERT OR IGNORE INTO grouping_todo (posting_id) VALUES (NEW.id);
END;

CREATE TRIGGER postings_regroup_on_change AFTER UPDATE OF company, title, description ON postings
WHEN OLD.company IS NOT NEW.company OR OLD.title IS NOT NEW.title
     OR OLD.description IS NOT NEW.description
BEGIN
    INSERT OR IGNORE INTO grouping_todo (posting_id) VALUES (NEW.id);
END;

CREATE TRIGGER postings_regroup_on_close AFTER UPDATE OF closed_at ON postings
WHEN OLD.closed_at IS NULL AND NEW.closed_at IS NOT NULL
BEGIN
    INSERT OR IGNORE INTO grouping_todo (posting_id) VALUES (NEW.id);
END;

-- Postings from before grouping are looked at once, by the first fetch after this.
INSERT INTO grouping_todo (posting_id) SELECT id FROM postings;

-- Pairs split apart by hand (`jobtracker postings split`): the grouping pass never
-- puts them in one group again. a < b.
CREATE TABLE postings_apart (
    a INTEGER NOT NULL REFERENCES postings(id) ON DELETE CASCADE,
    b INTEGER NOT NULL REFERENCES postings(id) ON DELETE CASCADE,
    PRIMARY KEY (a, b),
    CHECK (a < b)
);
