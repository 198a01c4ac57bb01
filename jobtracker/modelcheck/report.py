"""What `model check` found, as plain data: the JSON object and the 80-column table.

Every string that came from outside (the server's answers, model names, unit
labels, error lines) passes `one_line` before it is stored here (check.py), and
every table line passes `clean_text` again on the way out, so neither output can
carry a terminal control sequence.
"""

from __future__ import annotations

import textwrap
from dataclasses import asdict, dataclass, field
from typing import Any

from jobtracker.text import clean_text

WIDTH = 80


@dataclass
class ServerPart:
    url: str
    model: str | None
    reachable: bool = False
    listed: bool = False
    reason: str | None = None          # why the model cannot be asked, when it cannot
    context: int | None = None
    context_source: str = "unknown"
    context_note: str = ""
    tokenizer: str = "none"           # which endpoint counted prompts, or why none did


@dataclass
class TaskFit:
    task: str
    largest_prompt_tokens: int | None
    estimated: bool
    max_tokens: int
    fits: bool
    unit: str | None = None           # the unit with the largest prompt
    sampled: int = 0                  # how many pending units were measured
    note: str = ""


@dataclass
class TaskEval:
    task: str
    items: int
    correct: int = 0
    accuracy: float | None = None
    valid_json_rate: float | None = None     # answered with schema-valid JSON, any attempt
    valid_json_first_try_rate: float | None = None
    flat_fallback: bool = False              # the server wanted the flat json_object form
    median_latency_ms: int | None = None
    p95_latency_ms: int | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    wrong: list[dict[str, str]] = field(default_factory=list)   # item, expected, got


@dataclass
class ReplayPart:
    decisions: int = 0
    asked: int = 0
    agreed: int = 0
    agreement: float | None = None
    note: str = ""


@dataclass
class CheckReport:
    server: ServerPart
    tasks: list[TaskFit] = field(default_factory=list)
    eval: list[TaskEval] = field(default_factory=list)
    replay: ReplayPart = field(default_factory=ReplayPart)
    min_accuracy: float = 0.7
    problems: list[str] = field(default_factory=list)   # why ok is false, one line each

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "ok": self.ok}


def _num(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.0f}%"


def _ms(value: int | None) -> str:
    if value is None:
        return "-"
    return f"{value} ms" if value < 1000 else f"{value / 1000:.1f} s"


def _wrapped(prefix: str, text: str) -> list[str]:
    """`text` after `prefix`, wrapped under itself within WIDTH columns."""
    return textwrap.wrap(text, WIDTH, initial_indent=prefix,
                         subsequent_indent=" " * len(prefix)) or [prefix.rstrip()]


def format_text(report: CheckReport) -> str:
    s = report.server
    lines = ["Server"]
    lines += _wrapped("  url        ", s.url)
    lines += _wrapped("  model      ", f"{s.model or '-'} "
                      f"({'listed' if s.listed else 'not available'})")
    if s.reason:
        lines += _wrapped("  problem    ", s.reason)
    context = f"{_num(s.context)} tokens, from {s.context_source}" if s.context else "unknown"
    lines += _wrapped("  context    ", context + (f" ({s.context_note})" if s.context_note else ""))
    lines += _wrapped("  tokenizer  ", s.tokenizer)
    lines += ["", "Prompt fit (largest prompt it would send now)",
              f"  {'task':<12}{'prompt':>9}{'+ answer':>10}{'context':>10}  result"]
    for t in report.tasks:
        prompt = _num(t.largest_prompt_tokens) + ("~" if t.estimated and
                                                  t.largest_prompt_tokens is not None else "")
        result = "fits" if t.fits else "DOES NOT FIT"
        lines.append(f"  {t.task:<12}{prompt:>9}{_num(t.max_tokens):>10}"
                     f"{_num(s.context):>10}  {result}")
        if t.unit and not t.fits:
            lines += _wrapped("      unit: ", t.unit)
        if t.note:
            lines += _wrapped("      ", t.note)
    if any(t.estimated and t.largest_prompt_tokens is not None for t in report.tasks):
        lines.append("  ~ estimated: the server has no tokenizer endpoint")
    lines += ["", f"Evaluation set (accuracy needed: {_pct(report.min_accuracy)})",
              f"  {'task':<8}{'items':>6}{'right':>6}{'accuracy':>9}{'json ok':>8}"
              f"{'1st try':>8}{'median':>8}{'p95':>8}{'tokens in+out':>15}"]
    for e in report.eval:
        tokens = f"{e.input_tokens:,}+{e.output_tokens:,}"
        lines.append(f"  {e.task:<8}{e.items:>6}{e.correct:>6}{_pct(e.accuracy):>9}"
                     f"{_pct(e.valid_json_rate):>8}{_pct(e.valid_json_first_try_rate):>8}"
                     f"{_ms(e.median_latency_ms):>8}{_ms(e.p95_latency_ms):>8}{tokens:>15}")
        if e.flat_fallback:
            lines.append("      answered in the flat json_object form (server's choice)")
    if not report.eval:
        lines.append("  not run")
    r = report.replay
    lines += ["", "Replay of your decisions"]
    if r.asked:
        lines.append(f"  {r.agreed} of {r.asked} answers agree with what you decided "
                     f"({_pct(r.agreement)})")
    if r.note:
        lines += _wrapped("  ", r.note)
    lines += ["", "Result: " + ("ok, this model can do the work" if report.ok else "NOT OK")]
    for problem in report.problems:
        lines += _wrapped("  - ", problem)
    return "\n".join(_fitted(line) for line in lines)


def _fitted(line: str) -> str:
    """Control characters out (belt and braces), and never wider than WIDTH."""
    line = clean_text(line).replace("\n", " ").rstrip()
    return line if len(line) <= WIDTH else line[: WIDTH - 1] + "…"
