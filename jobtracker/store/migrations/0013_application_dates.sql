-- The dates the tracker derives from an application's history, kept on the application
-- so that listing 5,000 applications reads 5,000 rows instead of summarising 50,000
-- history rows on every read (docs/tracking.md, "Dates that matter").
--
-- applied_at: the earliest time the status became a sent one (applied, screening,
--   interviewing, offer); the date of the email an accepted proposal came from
--   (message_at) stands for the change's own time when there is one.
-- changed_at: the latest status change.
-- screened / interviewed / offered: 1 once the history ever reached that stage.
--
-- History is append-only (a row goes only with its application), so one trigger on
-- insert keeps these equal to a summary of the history, whoever writes it. The
-- columns are never written anywhere else.
ALTER TABLE applications ADD COLUMN applied_at TEXT;
ALTER TABLE applications ADD COLUMN changed_at TEXT;
ALTER TABLE applications ADD COLUMN screened INTEGER NOT NULL DEFAULT 0;
ALTER TABLE applications ADD COLUMN interviewed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE applications ADD COLUMN offered INTEGER NOT NULL DEFAULT 0;

UPDATE applications SET (applied_at, changed_at, screened, interviewed, offered) = (
    SELECT MIN(CASE WHEN h.to_status IN ('applied', 'screening', 'interviewing', 'offer')
                    THEN COALESCE(h.message_at, h.at) END),
           MAX(h.at),
           COALESCE(MAX(h.to_status = 'screening'), 0),
           COALESCE(MAX(h.to_status = 'interviewing'), 0),
           COALESCE(MAX(h.to_status = 'offer'), 0)
    FROM application_history AS h WHERE h.application_id = applications.id);

CREATE TRIGGER application_history_dates AFTER INSERT ON application_history
BEGIN
    UPDATE applications SET
        applied_at = CASE
            WHEN NEW.to_status NOT IN ('applied', 'screening', 'interviewing', 'offer')
                THEN applied_at
            WHEN applied_at IS NULL OR COALESCE(NEW.message_at, NEW.at) < applied_at
                THEN COALESCE(NEW.message_at, NEW.at)
            ELSE applied_at END,
        changed_at = CASE WHEN changed_at IS NULL OR NEW.at > changed_at
                          THEN NEW.at ELSE changed_at END,
        screened = screened OR NEW.to_status = 'screening',
        interviewed = interviewed OR NEW.to_status = 'interviewing',
        offered = offered OR NEW.to_status = 'offer'
    WHERE id = NEW.application_id;
END;
