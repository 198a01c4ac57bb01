-- Boards and feeds named in sources.yaml, with what the last fetch learned.
CREATE TABLE boards (
    id            INTEGER PRIMARY KEY,
    source        TEXT NOT NULL,          -- 'greenhouse', 'lever', 'ashby', 'feed', ...
    token         TEXT NOT NULL,          -- the board token, or the feed's name
    company       TEXT NOT NULL DEFAULT '',
    url           TEXT,
    etag          TEXT,
    last_modified TEXT,
    last_fetched  TEXT,
    last_ok       TEXT,
    last_error    TEXT,
    UNIQUE (source, token)
);

-- One row per job, keyed by its identity on its board, never by URL.
-- `description` is the last column on purpose: a long text spills into overflow
-- pages, and every column stored after it would cost those page reads on each
-- scan. `description_hash` is kept by the triggers below, through the registered
-- description_hash() function, so it always hashes the description stored now.
CREATE TABLE postings (
    id                 INTEGER PRIMARY KEY,
    board_id           INTEGER NOT NULL REFERENCES boards(id),
    external_id        TEXT NOT NULL,
    company            TEXT NOT NULL DEFAULT '',
    title              TEXT NOT NULL,
    location           TEXT NOT NULL DEFAULT '',
    remote             INTEGER,               -- 1, 0, or NULL when the board does not say
    url                TEXT NOT NULL DEFAULT '',
    department         TEXT NOT NULL DEFAULT '',
    description_source TEXT NOT NULL DEFAULT 'ats',   -- 'ats' (the prose) or 'feed' (a blurb)
    title_level        TEXT NOT NULL DEFAULT 'UNCERTAIN',
    salary_min         REAL,
    salary_max         REAL,
    salary_currency    TEXT,
    posted_at          TEXT,
    updated_at         TEXT,
    first_seen         TEXT NOT NULL,
    last_seen          TEXT NOT NULL,
    closed_at          TEXT,                  -- NULL while open
    description_hash   TEXT NOT NULL DEFAULT '',
    description        TEXT,
    UNIQUE (board_id, external_id)
);
CREATE TRIGGER postings_hash_on_insert AFTER INSERT ON postings
BEGIN
    UPDATE postings SET description_hash = description_hash(NEW.description) WHERE id = NEW.id;
END;
CREATE TRIGGER postings_hash_on_update AFTER UPDATE OF description ON postings
BEGIN
    UPDATE postings SET description_hash = description_hash(NEW.description) WHERE id = NEW.id;
END;
CREATE INDEX postings_open ON postings (closed_at, title_level);

-- What the level task read in a description. source_hash is the description_hash
-- of the text the model was shown.
CREATE TABLE level_readings (
    posting_id  INTEGER PRIMARY KEY REFERENCES postings(id) ON DELETE CASCADE,
    level       TEXT NOT NULL,            -- the level vocabulary, or 'unclear'
    source_hash TEXT NOT NULL,
    model       TEXT NOT NULL DEFAULT '',
    read_at     TEXT NOT NULL
);

-- The user's applications; status changes by hand or by accepted proposals.
CREATE TABLE applications (
    id         INTEGER PRIMARY KEY,
    posting_id INTEGER UNIQUE REFERENCES postings(id),
    company    TEXT NOT NULL DEFAULT '',
    status     TEXT NOT NULL CHECK (status IN
               ('saved','applied','screening','interviewing','offer','rejected','withdrawn')),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

-- The failure ledger. Absence of a row means no failure on record.
CREATE TABLE task_attempts (
    task         TEXT NOT NULL,
    unit_key     TEXT NOT NULL,
    subject      TEXT NOT NULL DEFAULT '',   -- posting id or message key, to re-check liveness
    failures     INTEGER NOT NULL DEFAULT 0,
    last_error   TEXT NOT NULL DEFAULT '',
    last_attempt TEXT NOT NULL,
    PRIMARY KEY (task, unit_key)
);

-- Who is working this workspace now (the message; flock on run.lock is the guard).
CREATE TABLE lease (
    id        INTEGER PRIMARY KEY CHECK (id = 1),
    pid       INTEGER NOT NULL,
    host      TEXT NOT NULL,
    started   TEXT NOT NULL,
    heartbeat TEXT NOT NULL
);
