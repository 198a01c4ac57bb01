"""The sections of the workspace's files whose rooms sit above `jobtracker/config.py`.

One module per section, each its settings dataclass and its `load(doc, value)`, made
of the shared checkers (jobtracker/yamlfile/checks.py); `config.SECTIONS` lists them.
They live here rather than in their rooms (notify, mail, tracker, ranking, prepare,
postings) because those rooms import config, and config imports every section: a
section inside its room would close an import circle between config and the room.
A room below config keeps its own (`jobtracker/render/settings.py`).
"""
