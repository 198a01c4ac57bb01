-- New postings are grouped by the writer that stores them (jobtracker/upsert.py with
-- jobtracker/groups.py `place`), which writes each new row already pointing at its
-- group: queuing every insert for the grouping pass cost a work-list row, and a later
-- rewrite of the wide row for each posting that joined a group. A row stored without
-- its job_key (a writer that knows nothing of grouping) is still queued, and the
-- pass computes the key.
DROP TRIGGER postings_regroup_on_insert;
CREATE TRIGGER postings_regroup_on_insert AFTER INSERT ON postings
WHEN NEW.job_key = ''
BEGIN
    INSERT OR IGNORE INTO grouping_todo (posting_id) VALUES (NEW.id);
END;
