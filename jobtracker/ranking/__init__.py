"""Ranking: how well a posting fits the user, and the ordered list they read.

`matching` reads the profile's keywords and levels into the judge's inputs;
`scoring` turns a verdict and the posting's facts into a score; `matches` is the
ranked list (`jobtracker matches`, the TUI's matches screen) over scored groups.
`filters` keeps from the model what profile.yaml's `filters` rule out (with
`sponsorship`, the phrases of a refusal to sponsor a visa), and `prerank` orders the
rest for the judge by how well their text matches the profile (docs/ranking.md).
"""
