"""A workspace for the digest's tests: judged matches, a notify: section pointing at
loopback servers, and the helpers to read what was sent."""

from __future__ import annotations

from pathlib import Path

from jobtracker.cli import main
from jobtracker.workspace import Workspace
from tests.db import raw_connect

PROFILE = "prose: Senior backend engineer.\nlevels: [senior]\n"
JUDGED = "2026-11-30T03:00:00Z"


def workspace(tmp_path: Path, notify: str = "", extra: str = "") -> Workspace:
    ws = Workspace(tmp_path / "home")
    ws.init()
    (ws.home / "profile.yaml").write_text(PROFILE)
    (ws.home / "config.yaml").write_text(f"llm: {{url: null}}\n{extra}{notify}")
    assert main(["--home", str(ws.home), "check"]) == 0
    return ws


def add_matches(ws: Workspace, count: int, *, start: int = 1, verdict: str = "strong",
                title: str = "Senior Engineer {n}", company: str = "Acme",
                judged: str = JUDGED) -> list[int]:
    """`count` open, judged, scored postings at a wanted level: matches."""
    ids = list(range(start, start + count))
    with raw_connect(ws.db) as conn:
        conn.execute("INSERT OR IGNORE INTO boards (id, source, token, company) "
                     "VALUES (1, 'greenhouse', 'acme', 'Acme')")
        conn.executemany(
            "INSERT INTO postings (id, board_id, external_id, company, title, location, url, "
            "title_level, first_seen, last_seen, job_key) VALUES (?, 1, ?, ?, ?, 'Remote', ?, "
            "'senior', ?, ?, ?)",
            [(i, f"e{i}", company, title.format(n=i), f"https://jobs.example/{i}", judged,
              judged, f"k{i}") for i in ids])
        conn.executemany(
            "INSERT INTO rankings (posting_id, unit_key, prose_hash, verdict, ranked_at) "
            "VALUES (?, ?, '', ?, ?)", [(i, f"j:{i}", verdict, judged) for i in ids])
        conn.executemany(
            "INSERT INTO scores (posting_id, score, parts, scored_at) VALUES (?, ?, '{}', ?)",
            [(i, 1.0 - i / 100_000, judged) for i in ids])
    return ids


def email_settings(port: int, **more: str) -> str:
    extra = "".join(f", {k}: {v}" for k, v in more.items())
    return (f"  email: {{to: ada@example.org, from: jobtracker@localhost, host: 127.0.0.1, "
            f"port: {port}, tls: false{extra}}}\n")


def ntfy_settings(url: str, token_env: str | None = None) -> str:
    token = f", token_env: {token_env}" if token_env else ""
    return f"  ntfy: {{url: '{url}'{token}}}\n"
