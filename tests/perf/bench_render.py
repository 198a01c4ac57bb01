"""Benchmark: rendering (issue 26). Targets: one 2-page resume rendered and read back
in < 100 ms in process after the first; `prepare --top 20` with PDFs < 3 s in process;
rendering adds < 60 MB to RSS. Also prints what the rendering wheels take on disk.

- render: the sample 2-page resume (tests/render_samples.py) through build() — typeset
  with typst, read back with pypdf — the first call in a fresh process, then the
  median of 20 (each a new text, so nothing is answered from a cache).
- prepare: 20 Greenhouse postings with cached forms; packets carry resume.pdf and
  resume.docx (render.formats: [pdf, docx]); once with every posting on the master
  resume (rendered once, written 20 times), once with a tailored resume per posting
  (an accepted edit each: 20 renders), in process.
- read back: the check's reading of the sample PDF (text, and each run's position
  and width) against pypdf's plain extraction of the same PDF, measured in the same
  run: the ratio is what the page-bounds test costs.
- RSS: a fresh interpreter's resident memory before importing the renderer, and
  after rendering and reading back 20 resumes (VmRSS from /proc/self/status).

Each time is printed as wall time and this process's CPU time: on the shared 2-core
machine, under load, wall time counts the waits for a core; CPU time is what the
work itself takes, what an idle machine's wall time would be.

Run: .venv/bin/python tests/perf/bench_render.py
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import statistics
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from jobtracker import cli, proposals, store
from jobtracker.clock import now_iso
from jobtracker.config import RenderConfig
from jobtracker.prepare.answer_bank import load_answers
from jobtracker.prepare.run import prepare
from jobtracker.workspace import Workspace
from tests.perf.bench_prepare import TEAMS, sixty_questions
from tests.prepare_world import ANSWERS, judge_everything
from tests.render_samples import RESUME
from tests.servers.boards import BoardServer, greenhouse_board, greenhouse_form, greenhouse_job

JOBS = 20
WHEELS = ("typst", "pypdf", "python-docx", "lxml", "markdown-it-py", "mdurl")

RSS_PROBE = """
import sys
sys.path.insert(0, {root!r})
def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
from tests.render_samples import RESUME
import jobtracker.workspace  # the library as every command has it loaded
before = rss()
from jobtracker.render import build
from jobtracker.render.themes import find_theme
theme = find_theme("classic")
for n in range(20):
    build.build(RESUME + f"\\n- variation {{n}}\\n", "cv.md", "pdf", theme, "a4")
print(before, rss())
"""


class Timer:
    """Wall and CPU seconds of a block."""

    def __enter__(self) -> Timer:
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *_: object) -> None:
        self.wall = time.perf_counter() - self.wall
        self.cpu = time.process_time() - self.cpu


def bench_render() -> tuple[Timer, list[Timer]]:
    from jobtracker.render import build
    from jobtracker.render.themes import find_theme

    theme = find_theme("classic")
    with Timer() as cold:
        first = build.build(RESUME, "cv.md", "pdf", theme, "a4")
    assert first.pages == 2 and first.ok
    warm = []
    for n in range(20):
        text = RESUME + f"\n- A line that makes text number {n} new.\n"
        with Timer() as one:
            built = build.build(text, "cv.md", "pdf", theme, "a4")
        warm.append(one)
        assert built.ok
    return cold, warm


def bench_read_back() -> tuple[float, float]:
    """CPU seconds (median of 20) of reading the sample's PDF back as the check does
    (text, and every run's position and width for the page-bounds test) and, as the
    baseline measured in the same run, of pypdf's plain extraction of the same PDF."""
    import pypdf

    from jobtracker.render import build, check
    from jobtracker.render.themes import find_theme

    data = build.build(RESUME, "cv.md", "pdf", find_theme("classic"), "a4").data
    checked, plain = [], []
    for _ in range(20):
        with Timer() as one:
            check.read(data)
        checked.append(one.cpu)
        with Timer() as one:
            [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages]
        plain.append(one.cpu)
    return statistics.median(checked), statistics.median(plain)


def rss_added() -> tuple[float, float]:
    out = subprocess.run([sys.executable, "-c", RSS_PROBE.format(
        root=str(Path(__file__).resolve().parents[2]))], capture_output=True, text=True,
        check=True).stdout.split()
    return float(out[0]), float(out[1])


def installed_mb() -> dict[str, float]:
    sizes = {}
    for name in WHEELS:
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        total = 0
        for file in dist.files or ():
            path = Path(str(dist.locate_file(file)))
            with contextlib.suppress(OSError):
                total += path.stat().st_size
        sizes[name] = total / 1e6
    return sizes


async def tailor_each(ws: Workspace) -> None:
    """One accepted resume edit per posting: every packet's resume is its own."""
    async with store.connect(ws.db) as conn:
        rows = await conn.execute_fetchall("SELECT id, company, title FROM postings")
        for index, (pid, company, title) in enumerate(rows):
            async with store.write(conn):
                proposal = await proposals.create(
                    conn, kind="resume_edit", task="tailor", unit_key=f"b{pid}", now=now_iso(),
                    summary="edit", posting_id=pid,
                    payload={"original": "Mentored four engineers and wrote the team's "
                                         "design review guide.",
                             "replacement": f"Mentored four engineers ({index}) and wrote the "
                                            "team's design review guide.",
                             "company": company, "title": title, "posting_id": pid})
            await proposals.accept(conn, [proposal], now_iso(), ws.home)


def in_process(ws: Workspace, render: RenderConfig) -> Timer:
    bank, profile = load_answers(ws / "answers.yaml"), ws.profile()
    with Timer() as timer:
        _, done = asyncio.run(prepare(ws.home, ws.db, profile, bank, now_iso(), top=JOBS,
                                      render=render))
    assert len(done) == JOBS and all(d.ok for item in done for d in item.documents)
    return timer


def judged_world(tmp: Path, server: BoardServer, config: str | None = None) -> Workspace:
    """A workspace at tmp/home whose board (on `server`) lists a job per team, each with
    a 60-question form, fetched and every posting judged; `config` its config.yaml."""
    ws = Workspace(tmp / "home")
    ws.init()
    titles = {i: f"Senior {team} Engineer" for i, team in enumerate(TEAMS, start=1)}
    server.set("/gh/acme", greenhouse_board([greenhouse_job(i, t) for i, t in titles.items()]))
    for i, title in titles.items():
        server.set(f"/gh/acme/{i}?questions=true",
                   greenhouse_form(i, title, questions=sixty_questions()))
    (ws.home / "sources.yaml").write_text(
        f"boards:\n  - {{ats: greenhouse, token: acme, url: '{server.url('/gh/acme')}'}}\n")
    (ws.home / "profile.yaml").write_text("prose: Backend\nlevels: [senior, staff]\n")
    (ws.home / "resume.md").write_text(RESUME)
    (ws.home / "answers.yaml").write_text(ANSWERS)
    if config is not None:
        (ws.home / "config.yaml").write_text(config)
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(["--home", str(ws.home), "fetch"]) == 0
    judge_everything(ws)
    return ws


def bench_prepare(tmp: Path, server: BoardServer) -> dict[str, Timer]:
    ws = judged_world(tmp, server)
    render = RenderConfig(formats=("pdf", "docx"))
    out = {"first (forms read, packets written)": in_process(ws, render)}
    out["again, nothing changed"] = min((in_process(ws, render) for _ in range(3)),
                                        key=lambda t: t.wall)
    (ws.home / "resume.md").write_text(RESUME + "\n- One more line.\n")
    out["master resume changed (1 render, 20 written)"] = in_process(ws, render)
    asyncio.run(tailor_each(ws))
    (ws.home / "resume.md").write_text(RESUME)
    out["a tailored resume per posting (20 renders)"] = in_process(ws, render)
    return out


def main() -> None:
    cold, warm = bench_render()
    print(f"render + read back, 2-page resume: first {cold.wall * 1000:.0f} ms wall "
          f"({cold.cpu * 1000:.0f} ms CPU); after it "
          f"{statistics.median(t.wall for t in warm) * 1000:.0f} ms wall median of 20 "
          f"({statistics.median(t.cpu for t in warm) * 1000:.0f} ms CPU), "
          f"max {max(t.wall for t in warm) * 1000:.0f} ms (target < 100 ms)")
    checked, plain = bench_read_back()
    print(f"read back with the page-bounds visitor: {checked * 1000:.0f} ms CPU, plain "
          f"pypdf extraction (baseline, same run) {plain * 1000:.0f} ms CPU: ratio "
          f"{checked / plain:.2f}")
    before, after = rss_added()
    print(f"RSS: {before:.0f} MB before the renderer, {after:.0f} MB after 20 renders: "
          f"+{after - before:.0f} MB (target < 60 MB)")
    sizes = installed_mb()
    print("installed size of the rendering wheels: " + ", ".join(
        f"{name} {size:.1f} MB" for name, size in sizes.items())
        + f"; {sum(sizes.values()):.0f} MB in all")
    with tempfile.TemporaryDirectory() as tmp, BoardServer() as server:
        for what, timer in bench_prepare(Path(tmp), server).items():
            print(f"prepare --top {JOBS} with resume.pdf and .docx, in process, {what}: "
                  f"{timer.wall:.2f} s wall, {timer.cpu:.2f} s CPU (target < 3 s)")


if __name__ == "__main__":
    main()
