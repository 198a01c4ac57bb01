-- The digest (docs/notify.md): every `digest --send`, and what each channel took.
--
-- digests: one row per send. `delivered` and `failed` are JSON (a list of channel
--   names; channel -> the reason, redacted). `since` is the window the digest covered.
-- digest_announced: the jobs a channel announced, by the posting that led the job's
--   group when it was announced. A job is told once per channel, ever: a later digest
--   skips a group holding any announced posting, whichever posting leads it now. A
--   channel that failed has no rows for that digest, so it gets the same jobs next time.
CREATE TABLE digests (
    id        INTEGER PRIMARY KEY,
    sent_at   TEXT NOT NULL,
    since     TEXT,
    file      TEXT,
    delivered TEXT NOT NULL DEFAULT '[]',
    failed    TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE digest_announced (
    channel    TEXT NOT NULL,
    posting_id INTEGER NOT NULL REFERENCES postings(id) ON DELETE CASCADE,
    digest_id  INTEGER NOT NULL REFERENCES digests(id) ON DELETE CASCADE,
    PRIMARY KEY (channel, posting_id)
) WITHOUT ROWID;

-- Accepted interviews (docs/notify.md, "Interviews"): one row per interview, written
-- when an `interview` proposal is accepted. `uid` is the calendar UID, stable for the
-- interview's life: a moved or cancelled interview keeps it and raises `sequence`, so
-- a calendar subscribed to interviews.ics updates the event instead of adding one.
-- start_at/end_at: ISO 8601 with the offset the mail meant; start_utc orders them.
-- timezone: the IANA name when one is known, NULL for a fixed offset.
CREATE TABLE interviews (
    id             INTEGER PRIMARY KEY,
    application_id INTEGER NOT NULL REFERENCES applications(id),
    uid            TEXT NOT NULL UNIQUE,
    start_at       TEXT NOT NULL,
    end_at         TEXT NOT NULL,
    start_utc      TEXT NOT NULL,
    timezone       TEXT,
    location       TEXT NOT NULL DEFAULT '',
    quote          TEXT NOT NULL DEFAULT '',
    status         TEXT NOT NULL DEFAULT 'confirmed' CHECK (status IN ('confirmed', 'cancelled')),
    sequence       INTEGER NOT NULL DEFAULT 0,
    proposal_id    INTEGER REFERENCES proposals(id),
    message_key    TEXT,
    file           TEXT,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);
CREATE INDEX interviews_by_start ON interviews (start_utc);
CREATE INDEX interviews_by_application ON interviews (application_id);

-- The inbox's reading of the time an invitation or scheduling mail names (JSON: quote,
-- start, end, minutes, zone, where, cancelled), kept with the rest of its reading.
ALTER TABLE messages ADD COLUMN interview TEXT;
