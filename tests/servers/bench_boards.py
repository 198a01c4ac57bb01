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

from servers import shapes
from servers.boards import (
    BoardServer,
    Route,
    ashby_board,
    ashby_job,
    greenhouse_board,
    greenhouse_job,
    lever_posting,
)

# The shapes `--mix` serves, board i getting MIX[i % len(MIX)].
MIX = ("greenhouse", "lever", "ashby", "workable", "smartrecruiters", "recruitee", "personio",
       "workday", "hackernews", "remoteok", "remotive", "himalayas")

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


def _uuid(board: int, job: int) -> str:
    return f"{board:08x}-0000-4000-8000-{job:012x}"


def _title(job: int) -> str:
    return f"{BENCH_TITLES[job % len(BENCH_TITLES)]} {job}"


def mix_address(base: str, board: int) -> tuple[str, str]:
    """(ats, the board's `url`) of board `board` in the mix; `base` ends with '/bench/'."""
    ats = MIX[board % len(MIX)]
    suffix = {"greenhouse": "", "workday": "/wday/cxs/t/s/jobs",
              "hackernews": "/hn/api/v1/search_by_date?tags=story,author_whoishiring"}
    return ats, f"{base}{board}" + suffix.get(ats, f"/{ats}")


def _with_prose(items: list[dict], key: str, content: str) -> list[dict]:
    return [{**item, key: content} for item in items]


def mix_routes(server: BoardServer, board: int, postings: int) -> None:
    """Serve board `board` of the mix in its source's shape, with ~3 KB of HTML a job."""
    content = BENCH_PARAGRAPH * 6
    ats, url = mix_address("", board)
    path = f"/bench{url}" if url.startswith("/") else f"/bench/{url}"
    prefix = f"/bench/{board}"
    jobs = range(postings)
    etag = f'"mix-{board}"'
    if ats == "greenhouse":
        server.routes[path] = Route(bench_board(board, postings), etag=etag)
    elif ats == "lever":
        server.set(path, [lever_posting(_uuid(board, j), _title(j), description_html=content)
                          for j in jobs], etag=etag)
    elif ats == "ashby":
        server.set(path, ashby_board([ashby_job(_uuid(board, j), _title(j),
                                                description_html=content) for j in jobs]),
                   etag=etag)
    elif ats == "workable":
        server.set(path, shapes.workable_page([shapes.workable_job(f"W{j}", _title(j))
                                               for j in jobs]), post={})
        for j in jobs:
            server.set(f"{path}/W{j}", shapes.workable_detail(f"W{j}", _title(j),
                                                              description_html=content))
    elif ats == "smartrecruiters":
        server.set(f"{path}?limit=100&offset=0", shapes.smartrecruiters_page(
            [shapes.smartrecruiters_posting(str(j), _title(j)) for j in jobs][:100]))
        for j in jobs:
            server.set(f"{path}/{j}", shapes.smartrecruiters_detail(str(j), _title(j), content))
    elif ats == "recruitee":
        server.set(path, {"offers": _with_prose(
            [shapes.recruitee_offer(j, _title(j)) for j in jobs], "description", content)},
            etag=etag)
    elif ats == "personio":
        server.set(path, shapes.personio_xml(
            shapes.personio_position(j, _title(j), sections=(("About", content),))
            for j in jobs), etag=etag)
    elif ats == "workday":
        listed = [shapes.workday_job(f"R{j}", _title(j)) for j in jobs]
        for offset in range(0, postings, 20):
            server.set(path, shapes.workday_page(listed[offset:offset + 20], postings),
                       post={"appliedFacets": {}, "limit": 20, "offset": offset,
                             "searchText": ""})
        for j, job in zip(jobs, listed, strict=True):
            server.set(f"{prefix}/wday/cxs/t/s{job['externalPath']}",
                       shapes.workday_detail(f"R{j}", _title(j), content))
    elif ats == "hackernews":
        server.set(path, shapes.hn_search((7, "Ask HN: Who is hiring? (November 2026)")))
        server.set(f"{prefix}/hn/api/v1/items/7", shapes.hn_thread(7, [
            shapes.hn_comment(board * 100_000 + j, f"Co{j} | {_title(j)} | Remote<p>{content}")
            for j in jobs]))
    elif ats == "remoteok":
        server.set(path, [shapes.REMOTEOK_LEGAL, *_with_prose(
            [shapes.remoteok_job(str(j), _title(j)) for j in jobs], "description", content)],
            etag=etag)
    elif ats == "remotive":
        server.set(path, shapes.remotive_board(_with_prose(
            [shapes.remotive_job(j, _title(j)) for j in jobs], "description", content)),
            etag=etag)
    elif ats == "himalayas":
        listed = _with_prose([shapes.himalayas_job(f"b{board}-{j}", _title(j)) for j in jobs],
                             "description", content)
        for offset in range(0, postings, 20):
            server.set(f"{path}?limit=20&offset={offset}",
                       shapes.himalayas_page(listed[offset:offset + 20], offset, postings))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="serve a benchmark set of boards")
    parser.add_argument("--boards", type=int, default=300)
    parser.add_argument("--postings", type=int, default=100)
    parser.add_argument("--mix", action="store_true", help="every source shape in turn")
    args = parser.parse_args(argv)
    server = BoardServer()
    for board in range(args.boards):
        if args.mix:
            mix_routes(server, board, args.postings)
        else:
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

