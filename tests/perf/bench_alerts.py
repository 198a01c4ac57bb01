"""Benchmark: reading job-alert mail, and what alert cards add to grouping.

Run from the repository root:

    .venv/bin/python tests/perf/bench_alerts.py [--mails 1000] [--cards 10000] [--rounds 3]

1. Reading (target: 1,000 mails of 5-20 cards in < 2 s). `--mails` alert mails are
   built the way their senders send them (tests/alerts_samples.py: multipart, both
   parts, three links a LinkedIn card, tracking links, chrome and footers), LinkedIn
   saved-search digests and Indeed digests in turn, each with 5 to 20 cards; every
   one is read from its raw bytes (`jobtracker.alerts.read`: MIME, the HTML part, the
   cards). Prints the best time of `--rounds`, per mail, and the ratio to the target.

2. Grouping (target: < 1 s per 10,000 cards). A database holds 20,000 board postings
   (200 companies' Greenhouse boards, stored as a fetch stores them); `--cards` alert
   cards (a third of them the same company and title as a board posting) are stored
   the way fetch stores them (`upsert.apply_alerts` inside `Grouping.board`, one
   transaction per sender, the grouping pass and `groups.inherit_texts` after it), once
   as shipped and once with the cards placed alone and no texts inherited. The two
   alternate `--rounds` times, each into a copy of the same database; prints the best
   of each (wall and CPU) and what grouping adds per 10,000 cards.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from alerts_samples import indeed_digest, linkedin_saved_search  # noqa: E402

from jobtracker import alerts, store  # noqa: E402
from jobtracker.postings import groups  # noqa: E402
from jobtracker.postings.upsert import apply_alerts, apply_board, ensure_board  # noqa: E402
from jobtracker.sources import NormalizedPosting  # noqa: E402

READ_TARGET = 2.0          # seconds for 1,000 mails
GROUP_TARGET = 1.0         # seconds per 10,000 cards
NOW = "2026-12-01T08:00:00Z"
COMPANIES = [f"Company {n}" for n in range(200)]
TITLES = ["Backend Engineer", "Data Engineer", "Platform Engineer", "SRE", "iOS Engineer",
          "Engineering Manager", "Frontend Engineer", "ML Engineer", "Security Engineer",
          "Product Designer"]
PLACES = ["Berlin, Germany", "Remote", "London", "New York, NY", "Paris"]


class Counts:
    new = updated = reopened = closed = unchanged = 0


# --- 1. reading ---------------------------------------------------------------------------

def mails(count: int) -> tuple[list[bytes], int]:
    rng = random.Random(5)
    out, cards = [], 0
    for n in range(count):
        size = rng.randint(5, 20)
        cards += size
        if n % 2:
            jobs = [(str(4_000_000_000 + n * 100 + k), f"{rng.choice(TITLES)} {k}",
                     rng.choice(COMPANIES), rng.choice(PLACES)) for k in range(size)]
            out.append(linkedin_saved_search(jobs, message_id=f"<li{n}@x>").raw)
        else:
            jobs = []
            for k in range(size):
                jk = f"{n:08x}{k:08x}"
                jobs.append((jk, f"{rng.choice(TITLES)} {k}", rng.choice(COMPANIES), "3.9",
                             rng.choice(PLACES), "$120,000 - $150,000 a year",
                             "Build and run our services.", f"{k} days ago",
                             f"https://www.indeed.com/rc/clk?jk={jk}&from=ja&tk=1"))
            out.append(indeed_digest(jobs, message_id=f"<in{n}@x>").raw)
    return out, cards


def bench_reading(count: int, rounds: int) -> None:
    raws, cards = mails(count)
    size = sum(map(len, raws))
    best = cpu = float("inf")
    read = 0
    for _ in range(rounds):
        started, used = time.perf_counter(), time.process_time()
        read = sum(len(reading.postings) for raw in raws if (reading := alerts.read(raw)))
        best = min(best, time.perf_counter() - started)
        cpu = min(cpu, time.process_time() - used)
    target = READ_TARGET * count / 1000
    print(f"reading: {count} mails ({size / 1e6:.1f} MB), {cards} cards, {read} read: "
          f"best {best:.2f} s wall ({best / count * 1000:.2f} ms a mail), {cpu:.2f} s CPU; "
          f"target {target:.1f} s, ratio {best / target:.2f} (CPU {cpu / target:.2f})")
    assert read == cards, "a card was lost: the benchmark reads the wrong thing"


# --- 2. grouping -------------------------------------------------------------------------

def board_postings() -> dict[str, list[NormalizedPosting]]:
    rng = random.Random(7)
    vocabulary = [f"w{i}" for i in range(3000)]
    boards: dict[str, list[NormalizedPosting]] = {}
    for company in COMPANIES:
        boards[company] = [NormalizedPosting(
            external_id=f"{company}-{n}", title=f"{TITLES[n % len(TITLES)]} {n // 10}",
            company=company, location=rng.choice(PLACES), url=f"https://ats.example/{n}",
            description=" ".join(rng.choice(vocabulary) for _ in range(300)))
            for n in range(100)]
    return boards


def cards(total: int) -> dict[str, list[tuple[NormalizedPosting, str]]]:
    """Cards of four senders; a third are a board posting's company and title."""
    rng = random.Random(11)
    out: dict[str, list[tuple[NormalizedPosting, str]]] = {}
    senders = ("linkedin", "indeed", "glassdoor", "google")
    for n in range(total):
        company = rng.choice(COMPANIES)
        if n % 3 == 0:
            k = rng.randrange(100)
            title = f"{TITLES[k % len(TITLES)]} {k // 10}"
        else:
            title = f"{rng.choice(TITLES)} {rng.randrange(10, 60)}"
        sender = senders[n % len(senders)]
        posting = NormalizedPosting(
            external_id=f"{sender}:{n}", title=title, company=company,
            location=rng.choice(PLACES), url=f"https://www.example.org/jobs/{n}",
            description="A short snippet from the alert.", description_source="alert")
        out.setdefault(sender, []).append((posting, "2026-11-30T07:30:00Z"))
    return out


async def seed(db: Path) -> None:
    async with store.connect(db) as conn:
        grouping = groups.Grouping(conn)
        for company, postings in board_postings().items():
            async with store.write(conn):
                board_id = await ensure_board(conn, "greenhouse", company.replace(" ", ""),
                                              company, configured=True)
                async with grouping.board(board_id) as board:
                    await apply_board(conn, board, company, postings, NOW, Counts())


async def store_cards(db: Path, batches: dict[str, list[tuple[NormalizedPosting, str]]]
                      ) -> tuple[float, float]:
    async with store.connect(db) as conn:
        wall, cpu = time.perf_counter(), time.process_time()
        grouping = groups.Grouping(conn)
        for sender, batch in batches.items():
            async with store.write(conn):
                board_id = await ensure_board(conn, "alert", sender, sender, configured=True)
                async with grouping.board(board_id, cards=True) as board:
                    await apply_alerts(conn, board, batch, NOW, Counts())
        return time.perf_counter() - wall, time.process_time() - cpu


async def alone(conn: object, board_id: int, fresh: list[object]) -> list[groups.Placed]:
    return [groups.ALONE] * len(fresh)


async def nothing(conn: object) -> int:
    return 0


def bench_grouping(total: int, rounds: int) -> None:
    batches = cards(total)
    with tempfile.TemporaryDirectory() as folder:
        seeded = Path(folder) / "seeded.db"
        asyncio.run(seed(seeded))
        shipped = (groups.place_alerts, groups.inherit_texts)
        best = {"with": (float("inf"), float("inf")), "without": (float("inf"), float("inf"))}
        joined = 0
        for _ in range(rounds):
            for variant in ("without", "with"):
                db = Path(folder) / f"{variant}.db"
                for suffix in ("", "-wal", "-shm"):
                    Path(str(db) + suffix).unlink(missing_ok=True)
                shutil.copy(seeded, db)
                if variant == "without":
                    groups.place_alerts, groups.inherit_texts = alone, nothing
                else:
                    groups.place_alerts, groups.inherit_texts = shipped
                took = asyncio.run(store_cards(db, batches))
                best[variant] = (min(best[variant][0], took[0]), min(best[variant][1], took[1]))
                if variant == "with":
                    import sqlite3
                    with sqlite3.connect(db) as raw:
                        joined = raw.execute(
                            "SELECT COUNT(*) FROM postings AS p JOIN boards AS b ON b.id = "
                            "p.board_id WHERE b.source = 'alert' AND p.lead_id IS NOT NULL"
                        ).fetchone()[0]
        groups.place_alerts, groups.inherit_texts = shipped
    per = 10_000 / total
    wall = (best["with"][0] - best["without"][0]) * per
    cpu = (best["with"][1] - best["without"][1]) * per
    print(f"grouping: {total} cards into 20,000 board postings, {joined} joined a group; "
          f"without {best['without'][0]:.2f} s (CPU {best['without'][1]:.2f}), "
          f"with {best['with'][0]:.2f} s (CPU {best['with'][1]:.2f}); adds {wall:.2f} s wall, "
          f"{cpu:.2f} s CPU per 10,000 cards; target {GROUP_TARGET:.1f} s, "
          f"ratio {max(wall, 0) / GROUP_TARGET:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=1000)
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    bench_reading(args.mails, args.rounds)
    bench_grouping(args.cards, args.rounds)


if __name__ == "__main__":
    main()
