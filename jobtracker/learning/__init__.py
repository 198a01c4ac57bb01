"""Learning from the user's decisions: dismissals, calibration, suggested profile edits.

`dismissals` records a "not for me" on a match with its reason (and what the
posting looked like then); `calibration` sets the judge's verdicts beside what the
user's applications became; `suggest` reads decisions into changes to profile.yaml,
each with the decisions behind it (pure); `learn` turns those into proposals of
kind `profile` (never an edit: only an accepted proposal changes the file);
`jobtracker.yamlfile.edit` makes such an edit in the file's own text, so comments and layout stay
as the user wrote them. docs/learning.md has the rules and thresholds.
"""
