-- Which feed last listed a posting (NULL: never listed by a feed). A posting whose
-- description is still a feed's blurb is closed when that feed stops listing it;
-- once its ATS has supplied the prose, only the ATS board's fetch opens or closes it.
ALTER TABLE postings ADD COLUMN feed_id INTEGER REFERENCES boards(id);
CREATE INDEX postings_feed ON postings (feed_id) WHERE feed_id IS NOT NULL;
