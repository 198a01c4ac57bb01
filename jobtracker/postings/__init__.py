"""Postings in: from a board's answer to one stored row per job.

`fetch` asks every board in sources.yaml (through `download`, which owns the HTTP
rules: size caps, redirects, Retry-After) and hands each listing to `upsert`, which
stores it and closes what the board no longer lists. `groups` and `samejob` decide
which stored postings are the same job on several boards, so the job is judged
once; `levels` reads a seniority out of a title without a model.
"""
