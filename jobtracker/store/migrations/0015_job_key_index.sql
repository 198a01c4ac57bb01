-- The job_key index holds the key alone. It was covering (board, leader, closed) so the
-- grouping lookups never read a postings row; but those lookups find a handful of
-- rows, while every stored posting pays for the index: at 100,000 postings the wider
-- entries cost a first fetch about 2 s more (tests/perf/bench_grouping.py), and each
-- close or regrouping rewrote an entry. Now a lookup reads the few rows it finds.
DROP INDEX postings_by_job_key;
CREATE INDEX postings_by_job_key ON postings (job_key);
