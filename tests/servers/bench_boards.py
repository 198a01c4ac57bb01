"""The benchmark set of tests/perf/bench_fetch.py, served from its own process.

`python tests/servers/bench_boards.py --boards 300 --postings 100` serves `/bench/{i}`
in Greenhouse shape and prints its base URL on the first line; `--mix` serves every
source shape in turn instead (see `mix_routes`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from servers.boards import BoardServer, Route, greenhouse_board, greenhouse_job

BENCH_PARAGRAPH = (
    "<p>We are looking for an engineer to join our <strong>platform</strong> team. You will "
    "design, build and run services that thousands of customers rely on every day.</p>"
    "<ul><li>Five or more years with Python or Go</li><li>Experience with PostgreSQL "
    "&amp; distributed systems</li><li>Care for <em>operability</em> and clear docs</li></ul>"
)
BENCH_TITLES = ("Senior Backend Engineer", "Staff Engineer", "Software Engineer II",
                "Engineering Manager", "Junior Frontend Developer", "Principal Engineer")


def bench_board(board: int, postings: int) -> bytes:
    """A Greenhouse-shaped board of `postings` jobs with ~3 KB descriptions each."""
    content = BENCH_PARAGRAPH * 6
    jobs = [greenhouse_job(board * 100_000 + i, f"{BENCH_TITLES[i % len(BENCH_TITLES)]} {i}",
                           content_html=content, token=f"bench{board}")
            for i in range(postings)]
    return json.dumps(greenhouse_board(jobs)).encode()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="serve a benchmark set of boards")
    parser.add_argument("--boards", type=int, default=300)
    parser.add_argument("--postings", type=int, default=100)
    args = parser.parse_args(argv)
    server = BoardServer()
    for board in range(args.boards):
        server.routes[f"/bench/{board}"] = Route(bench_board(board, args.postings),
                                                 etag=f'"bench-{board}"')
    server.start()
    print(server.url("/bench/"), flush=True)
    try:
        sys.stdin.read()          # serve until the parent closes our stdin
    finally:
        server.stop()


if __name__ == "__main__":
    main()

