"""Benchmark: what the same-job measure costs a description (jobtracker/postings/samejob.py).

Run from the repository root:

    .venv/bin/python tests/perf/bench_samejob.py [--repeat 2000]

Prints microseconds per call, the best of five rounds (a shared machine only ever adds
time), for ~2.5 KB descriptions of three kinds: plain ASCII; ASCII but for typographic
quotes and dashes (half the descriptions a fetch stores); and text with accented
letters. `text_words` is what the measure splits descriptions with, `words` the
regular expression it must agree with word for word; then `near_copy` and `similar`
on two different texts under one key, what grouping asks of every candidate.
"""

from __future__ import annotations

import argparse
import random
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from jobtracker.postings import samejob  # noqa: E402

VOCABULARY = ("build", "run", "our", "ledger", "payments", "team", "service", "api", "python",
              "go", "postgres", "kafka", "senior", "engineer", "remote", "europe", "design",
              "review", "mentor", "on-call", "production", "customers", "scale", "data",
              "pipeline", "billing")


def description(rng: random.Random, kind: str, chars: int = 2500) -> str:
    words: list[str] = []
    while sum(len(w) + 1 for w in words) < chars:
        word = rng.choice(VOCABULARY)
        if kind != "ascii" and rng.random() < 0.05:
            word = f"“{word}”" if kind == "marks" else word.replace("e", "é")
        words.append(word.capitalize() if rng.random() < 0.1 else word)
        if rng.random() < 0.08:
            words[-1] += rng.choice([".", ",", ";"] if kind == "ascii" else [" —", "…", "."])
    return " ".join(words)


def per_call(fn: Callable[[], object], repeat: int) -> float:
    """Microseconds per call, best of five rounds."""
    return min(timeit.repeat(fn, number=repeat, repeat=5)) / repeat * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    rng = random.Random(5)
    print(f"{'text (2.5 KB)':<24}{'text_words':>12}{'words (re)':>12}  agree")
    for kind in ("ascii", "marks", "accents"):
        text = description(rng, kind)
        fast = per_call(lambda t=text: samejob.text_words(t), args.repeat)
        regex = per_call(lambda t=text: samejob.words(t), args.repeat)
        agree = samejob.text_words(text) == samejob.words(text)
        print(f"{kind:<24}{fast:>9.1f} µs{regex:>9.1f} µs  {agree}")
    a = samejob.Text(description(rng, "marks"))
    b = samejob.Text(description(rng, "marks"))
    a.shingles, b.shingles   # noqa: B018  (the words and shingles, read once as grouping does)
    near = per_call(lambda: samejob.near_copy(a, b), args.repeat)
    similar = per_call(lambda: samejob.similar(a, b), args.repeat)
    print(f"near_copy, two different texts  {near:7.1f} µs")
    print(f"similar, two different texts    {similar:7.1f} µs (words and shingles already read)")


if __name__ == "__main__":
    main()
