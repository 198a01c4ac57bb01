"""Benchmark: a Maildir synced into the database, first time and again.

Run from the repository root:

    .venv/bin/python tests/perf/bench_mail_sync.py [--messages 2000] [--postings 10000]

Three timings against one database:

- first:      every message is read, parsed, linked and inserted
- again:      nothing changed; every file is skipped by (name, size, mtime)
- attachment: one message with a 10 MB attachment, parsed alone
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "unit"))

from mail_samples import NOW, add_posting, build_maildir, plain, with_attachment  # noqa: E402

from jobtracker import store  # noqa: E402
from jobtracker.mail.maildir import parse_message, sync_maildir  # noqa: E402


async def run(messages: int, postings: int) -> None:
    tmp = Path(tempfile.mkdtemp())
    raws = [plain(f"Re: application {i}",
                  f"Thanks for applying to Company{i % 300}. "
                  f"https://boards.greenhouse.io/c/jobs/{4_000_000 + i}",
                  sender=f"jobs@company{i % 300}.com", message_id=f"<m{i}@x>", minute=i % 60)
            for i in range(messages)]
    maildir = build_maildir(tmp / "Mail", new=raws)
    async with store.connect(tmp / "db.sqlite") as conn:
        async with store.write(conn):
            for i in range(postings):
                await add_posting(conn, f"Company{i % 500}", "Engineer", str(5_000_000 + i))
        start = time.perf_counter()
        report = await sync_maildir(conn, maildir, NOW)
        first = time.perf_counter() - start
        start = time.perf_counter()
        again = await sync_maildir(conn, maildir, NOW)
        second = time.perf_counter() - start
    print(f"first:  {first:6.2f} s  {report.added} messages "
          f"({first / max(report.added, 1) * 1000:.2f} ms each)")
    print(f"again:  {second:6.2f} s  {again.read} read")
    big = with_attachment("Offer", "Attached.", 10 * 1024 * 1024)
    start = time.perf_counter()
    parse_message(big)
    print(f"attachment: {time.perf_counter() - start:.2f} s for a {len(big) >> 20} MB message")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--postings", type=int, default=10_000)
    args = parser.parse_args()
    asyncio.run(run(args.messages, args.postings))


if __name__ == "__main__":
    main()
