-- A covering index for the derived queue. The pending counts of level and judge
-- read only these columns of postings; with them in one narrow index, a survey
-- scans index pages instead of one wide row (and its long description) per posting.
CREATE INDEX postings_queue ON postings
    (closed_at, title_level, description_source, location, remote, title, description_hash);
