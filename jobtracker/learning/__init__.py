"""Learning from the user's decisions: dismissals and suggested profile edits.

`dismissals` records a "not for me" on a match with its reason (and what the
posting looked like then); `suggest` reads decisions into changes to profile.yaml,
each with the decisions behind it (pure); `learn` turns those into proposals of
kind `profile` (never an edit: only an accepted proposal changes the file);
`jobtracker.yamlfile.edit` makes such an edit in the file's own text, so comments and layout stay
as the user wrote them. How the verdicts fared against the user's outcomes is the
tracker's (jobtracker/tracker/calibration.py). docs/learning.md has the rules.
"""
