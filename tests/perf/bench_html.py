"""Benchmark: what the HTML5 parser costs, per alert mail and per 100 kB description.

Run from the repository root:

    .venv/bin/python tests/perf/bench_html.py [--rounds 5]

The shipped readers (selectolax's Lexbor parse and the walk in jobtracker/text.py:
`alerts.html.lines_from_html` for alert mail, `text.html_to_text` for descriptions)
are timed against two others measured in the same run: lxml.html (libxml2's HTML
parser, tolerant but not HTML5: python-docx brings it) parsed and walked the same way,
and the standard library's `html.parser` fed the same markup with no work per tag
(the floor of a pure-Python tokenizer). The mails are the HTML parts of the real
samples (tests/fixtures/real/alerts) and of the made-up ones (tests/alerts_samples.py);
the description is 100 kB of paragraphs, lists and a table. Prints CPU time per mail
and per 100 kB (best of `--rounds`), and each reader's ratio to the shipped one.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import lxml.html  # noqa: E402
from alerts_samples import SAMPLES  # noqa: E402

from jobtracker.alerts import mime  # noqa: E402
from jobtracker.alerts.base import Counts  # noqa: E402
from jobtracker.alerts.html import lines_from_html  # noqa: E402
from jobtracker.text import html_to_text  # noqa: E402

REAL = ROOT / "tests" / "fixtures" / "real" / "alerts"
BLOCKS = {"p", "div", "li", "tr", "td", "th", "br", "h1", "h2", "h3", "table", "ul", "ol", "a"}


def mail_parts() -> list[str]:
    raws = [path.read_bytes() for path in sorted(REAL.glob("*.eml"))]
    raws += [sample.raw for sample in SAMPLES.values()]
    return [html for raw in raws if (html := mime.read_mail(raw).html)]


def description() -> str:
    piece = ("<h2>About the role</h2><p>We are looking for a <b>senior engineer</b> to "
             "build and run our billing services &amp; data pipelines.</p><ul><li>Python "
             "and PostgreSQL<li>Own services in production<li>Mentor two engineers</ul>"
             "<table><tr><td>Level<td>Senior<tr><td>Pay<td>$150,000 - $180,000</table>")
    return piece * (100_000 // len(piece) + 1)


def lxml_lines(markup: str) -> list[str]:
    """lxml.html's tree walked as the shipped reader walks Lexbor's: text runs, a line
    break at each block element's start and end."""
    try:
        root = lxml.html.document_fromstring(markup)
    except (ValueError, lxml.etree.ParserError):
        return []
    out: list[str] = []
    buffer: list[str] = []
    for event, element in lxml.etree.iterwalk(root, events=("start", "end")):
        tag = element.tag if isinstance(element.tag, str) else ""
        if event == "start":
            if tag in BLOCKS:
                out.append("".join(buffer))
                buffer = []
            if tag not in ("script", "style", "head") and element.text:
                buffer.append(element.text)
        else:
            if tag in BLOCKS:
                out.append("".join(buffer))
                buffer = []
            if element.tail:
                buffer.append(element.tail)
    return [line for line in out if line.strip()]


class _Floor(HTMLParser):
    def handle_data(self, data: str) -> None:
        pass


def stdlib_floor(markup: str) -> None:
    parser = _Floor(convert_charrefs=True)
    parser.feed(markup)
    parser.close()


def best(work: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    parts = mail_parts() * 20
    prose = description()
    kb = len(prose) / 100_000
    size = sum(len(part) for part in parts) / len(parts)
    readers = {
        "selectolax (shipped)": (lambda: [lines_from_html(p, Counts()) for p in parts],
                                 lambda: html_to_text(prose)),
        "lxml.html": (lambda: [lxml_lines(p) for p in parts], lambda: lxml_lines(prose)),
        "html.parser (no work)": (lambda: [stdlib_floor(p) for p in parts],
                                  lambda: stdlib_floor(prose)),
    }
    print(f"{len(parts)} mail HTML parts, {size / 1000:.1f} kB each on average; "
          f"a description of {len(prose) / 1000:.0f} kB")
    shipped: tuple[float, float] | None = None
    for name, (mails, text) in readers.items():
        per_mail = best(mails, args.rounds) / len(parts) * 1000
        per_100kb = best(text, args.rounds) / kb * 1000
        shipped = shipped or (per_mail, per_100kb)
        print(f"{name:<24} {per_mail:7.3f} ms a mail ({per_mail / shipped[0]:4.2f}x)   "
              f"{per_100kb:7.2f} ms per 100 kB ({per_100kb / shipped[1]:4.2f}x)")


if __name__ == "__main__":
    main()
