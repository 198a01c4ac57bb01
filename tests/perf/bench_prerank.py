"""Benchmark: what the pre-rank buys the judge, on the labelled corpus (issue 28).

The labelled corpus (tests/ranking_corpus.py: postings across 17 roles, each marked
with the verdict a judge reading its profile would give) is stored in a real
workspace; the pre-rank is computed as a fetch leaves it; then, over the judge's
pending queue, this prints the share of the strong and good postings found within
the first 10% and 20% of judge calls, asking in the judge task's order (pre-rank
first) and newest first (the order before the pre-rank). Must: >= 80% within 20%.

The same corpus is ranked by bm25s too when it is installed (`pip install bm25s
PyStemmer`: not a dependency of jobtracker), on the same text, for the comparison
docs/ranking.md reports: the shares, and the time to index and to score.

Run: .venv/bin/python tests/perf/bench_prerank.py [--postings 1200] [--seed 28]
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

from jobtracker import runner, store  # noqa: E402
from jobtracker.ranking import prerank  # noqa: E402
from jobtracker.tasks.judge import JudgeTask  # noqa: E402
from jobtracker.workspace import Workspace  # noqa: E402
from tests import ranking_corpus as corpus  # noqa: E402


async def judge_order(ws: Workspace) -> tuple[list[int], float]:
    """The judge's pending ids in the order it asks, and the refresh's seconds."""
    setup = runner.load_setup(ws)
    ctx = setup.context("2026-12-01T09:00:00Z")
    async with store.connect(ws.db) as conn:
        started = time.perf_counter()
        await prerank.refresh(conn, prerank.workspace_query(ws.home, setup.profile))
        seconds = time.perf_counter() - started
        units = await JudgeTask().pending(conn, ctx)
    return [int(unit.subject) for unit in units], seconds


def bm25s_order(postings: list[corpus.CorpusPosting], pending: list[int],
                query: prerank.Query, chars: int | None) -> tuple[list[int], float, float] | None:
    try:
        import bm25s
    except ImportError:
        return None
    try:
        import Stemmer
        stemmer = Stemmer.Stemmer("english")
    except ImportError:
        stemmer = None
    # The same text as the FTS5 index holds (the title counting TITLE_WEIGHT times, as
    # bm25s has no columns), every posting indexed, the judge's queue scored.
    title_times = round(prerank.TITLE_WEIGHT)
    texts = [" ".join([p.title] * title_times) + " "
             + (p.description[:chars] if chars else p.description) for p in postings]
    started = time.perf_counter()
    tokens = bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False)
    index = bm25s.BM25()
    index.index(tokens, show_progress=False)
    indexed = time.perf_counter() - started
    weights = query.weights or (1,) * len(query.terms)
    words = [w for term, weight in zip(query.terms, weights, strict=True)
             for w in term.split() * weight]
    query_tokens = bm25s.tokenize([" ".join(words)], stopwords="en", stemmer=stemmer,
                                  return_ids=False, show_progress=False)[0]
    started = time.perf_counter()
    scores = index.get_scores(query_tokens)
    scored = time.perf_counter() - started
    row = {p.id: k for k, p in enumerate(postings)}
    ranked = sorted(pending, key=lambda i: (-float(scores[row[i]]), i))
    return ranked, indexed, scored


def report(name: str, order: list[int], wanted: set[int]) -> float:
    ten, twenty = (corpus.share_found(order, wanted, f) for f in (0.1, 0.2))
    print(f"  {name:<34} first 10%: {ten:6.1%}   first 20%: {twenty:6.1%}")
    return twenty


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postings", type=int, default=1200)
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args()
    postings = corpus.generate(args.postings, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        ws = Workspace(Path(tmp) / "home")
        ws.init()
        (ws.home / "profile.yaml").write_text(corpus.PROFILE_YAML, encoding="utf-8")
        (ws.home / "keywords.yaml").write_text(corpus.KEYWORDS_YAML, encoding="utf-8")
        asyncio.run(store.check_usable(ws.db))
        corpus.store_corpus(ws.db, postings)
        order, refresh_seconds = asyncio.run(judge_order(ws))
        query = prerank.workspace_query(ws.home, ws.profile())
    verdicts = {p.id: p.verdict for p in postings}
    wanted = {i for i in order if verdicts[i] in ("strong", "good")}
    print(f"corpus: {len(postings):,} postings (seed {args.seed}); the judge's queue holds "
          f"{len(order):,}, of which {len(wanted)} strong or good "
          f"({len(wanted) / max(len(order), 1):.1%})")
    print(f"pre-rank refresh (FTS5 bm25, {len(postings):,} postings indexed): "
          f"{refresh_seconds * 1000:.0f} ms")
    by_date = {p.id: p.posted_at for p in postings}
    newest = sorted(order, key=lambda i: (by_date[i], i), reverse=True)
    print("share of the strong and good postings judged within the first calls:")
    ours = report("pre-rank order (FTS5 bm25)", order, wanted)
    report("newest first", newest, wanted)
    for chars in (prerank.INDEXED_CHARS, None):
        found = bm25s_order(postings, order, query, chars)
        what = f"{chars:,} chars" if chars else "whole text"
        if found is None:
            print("  bm25s: not installed (pip install bm25s PyStemmer) - skipped")
            break
        ranked, indexed, scored = found
        report(f"bm25s, title + {what}", ranked, wanted)
        print(f"  {'':<34} index {indexed * 1000:.0f} ms, score {scored * 1000:.1f} ms "
              f"({len(postings):,} postings)")
    print(f"must: >= 80% within the first 20% of judge calls: "
          f"{'met' if ours >= 0.8 else 'NOT MET'} ({ours:.1%}, ratio {ours / 0.8:.2f})")


if __name__ == "__main__":
    main()
