-- Which postings keep a job open (issue 32). job_open was "the leader is open, or any
-- member is": so an aggregator's copy of a closed, applied job (a feed item, an HN
-- comment) made it open again in `matches`, with the user's verdict and status and
-- the copy's page as the job's. Now a member keeps or makes its group open only when it
-- is on the leader's own board (the employer listing the job again under a new id), or
-- when the leader is itself an aggregator's copy and the member is on a company's own
-- board: a company's own board leads the job, whichever was seen first.
--
-- boards.aggregator: 1 for a feed, a job alert's cards and a source listing many
-- companies' jobs
-- (`Source.aggregator`; upsert writes it with the board).
ALTER TABLE boards ADD COLUMN aggregator INTEGER NOT NULL DEFAULT 0;
UPDATE boards SET aggregator = 1
WHERE source IN ('feed', 'alert', 'hackernews', 'remoteok', 'remotive', 'himalayas');

DROP TRIGGER postings_job_open_on_insert;
DROP TRIGGER postings_job_open_on_update;

CREATE TRIGGER postings_job_open_on_insert AFTER INSERT ON postings
WHEN NEW.closed_at IS NOT NULL OR NEW.lead_id IS NOT NULL
BEGIN
    UPDATE postings SET job_open = NOT job_open
    WHERE id IN (NEW.id, NEW.lead_id) AND job_open IS NOT (
        lead_id IS NULL AND (closed_at IS NULL OR EXISTS (
            SELECT 1 FROM postings AS m WHERE m.lead_id = postings.id AND m.closed_at IS NULL
            AND (m.board_id = postings.board_id OR (
                (SELECT aggregator FROM boards WHERE id = postings.board_id) = 1
                AND (SELECT aggregator FROM boards WHERE id = m.board_id) = 0)))));
END;

CREATE TRIGGER postings_job_open_on_update AFTER UPDATE OF closed_at, lead_id ON postings
WHEN OLD.closed_at IS NOT NEW.closed_at OR OLD.lead_id IS NOT NEW.lead_id
BEGIN
    UPDATE postings SET job_open = NOT job_open
    WHERE id IN (NEW.id, NEW.lead_id, OLD.lead_id) AND job_open IS NOT (
        lead_id IS NULL AND (closed_at IS NULL OR EXISTS (
            SELECT 1 FROM postings AS m WHERE m.lead_id = postings.id AND m.closed_at IS NULL
            AND (m.board_id = postings.board_id OR (
                (SELECT aggregator FROM boards WHERE id = postings.board_id) = 1
                AND (SELECT aggregator FROM boards WHERE id = m.board_id) = 0)))));
END;

-- Groups stored before: their leaders' job_open by the new rule.
UPDATE postings SET job_open = 0
WHERE job_open = 1 AND lead_id IS NULL AND closed_at IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM postings AS m WHERE m.lead_id = postings.id AND m.closed_at IS NULL
    AND (m.board_id = postings.board_id OR (
        (SELECT aggregator FROM boards WHERE id = postings.board_id) = 1
        AND (SELECT aggregator FROM boards WHERE id = m.board_id) = 0)));
