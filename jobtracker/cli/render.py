"""`jobtracker render` and `jobtracker resume import`: documents you can send.

    jobtracker render FILE.md [-o OUT] [--format pdf|docx] [--theme NAME] [--json]
    jobtracker resume import FILE.json

`render` needs no workspace (it reads config.yaml's `render:` when there is one),
asks no model and opens no browser (jobtracker/render/). A PDF is read back before
the command says it is done: a text layer missing something is exit 1, with the
file written and named; bad input is exit 2 and writes nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from jobtracker.cli.base import (
    EXIT_ALL_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    add_home,
    command,
    print_json,
)

if TYPE_CHECKING:   # the renderer, its settings and the file helpers load when a command runs
    from jobtracker.render import build
    from jobtracker.render.settings import DateStyle
    from jobtracker.render.themes import Theme
    from jobtracker.workspace import Workspace

RESUME = "resume.md"


def _configure_render(parser: argparse.ArgumentParser) -> None:
    from jobtracker.render import build  # its formats: with `render`'s parser alone

    parser.add_argument("file", metavar="FILE.md", help="the Markdown document to render")
    parser.add_argument("-o", "--output", metavar="OUT",
                        help="where to write it (default: FILE with the format's suffix)")
    parser.add_argument("--format", choices=build.FORMATS,
                        help="pdf (the default) or docx")
    parser.add_argument("--theme", metavar="NAME",
                        help="classic, compact, or the path of a .typ theme "
                             "(default: config.yaml's render.theme, classic)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _fail(message: str) -> int:
    print(f"jobtracker: {message}", file=sys.stderr)
    return EXIT_USAGE


def _read_source(path: Path) -> str:
    """The document named on the command line, through the one reader (a link
    followed): its size is checked before a byte is read, so a 1 GB file, a FIFO or
    /dev/zero is refused at once, never read whole first."""
    from jobtracker import files
    from jobtracker.render import build

    try:
        raw = files.read_regular_bytes(path, build.MAX_BYTES, follow_links=True)
    except files.FileRefused as exc:
        if exc.kind == "large":
            raise build.BadInput(f"{path}: too large for a resume or letter (at most "
                                 f"{build.MAX_BYTES:,} bytes)") from None
        raise build.BadInput(f"{path}: {exc.reason.removeprefix('is ')}") from None
    if raw is None:
        raise build.BadInput(f"{path}: no such file")
    return build.decode(raw, str(path))


def _theme(args: argparse.Namespace, ws: Workspace) -> tuple[Theme, str]:
    from jobtracker.render.themes import find_theme
    from jobtracker.run.setup import config_of

    settings = config_of(ws).render
    theme = find_theme(args.theme) if args.theme else settings.find_theme()
    return theme, settings.paper


def _summary(built: build.Built, output: Path, theme: Theme, paper: str) -> str:
    if built.check is None:
        return f"wrote {output} (docx, {theme.name} sizes, {paper})"
    return (f"wrote {output} ({built.pages} page{'s' if built.pages != 1 else ''}, "
            f"{theme.name}, {paper}); read back: every heading, list item, paragraph "
            "and contact detail is in its text layer, in order, with no ligatures")


def _failed_check(built: build.Built, output: Path, source: Path) -> str:
    from jobtracker.render import check  # pypdf: only when a check failed

    assert built.check is not None
    return (f"{output} was written, but the read-back check failed: "
            f"{check.problems(built.check, str(source))}")


@command("render", "render a Markdown resume or letter as PDF or DOCX, read back "
         "(no model, no browser)", _configure_render, creates_workspace=True)
def cmd_render(args: argparse.Namespace, ws: Workspace) -> int:
    from jobtracker import files
    from jobtracker.render import build
    from jobtracker.render.themes import ThemeError

    source = Path(args.file)
    if source.suffix.lower() == ".json":
        return _fail(f"{source} is a JSON Resume, not a Markdown document: "
                     f"`jobtracker resume import {source}` writes resume.md from it, "
                     "then render that")
    fmt = args.format or "pdf"
    output = Path(args.output) if args.output else build.default_output(source, fmt)
    try:
        text = _read_source(source)
        theme, paper = _theme(args, ws)
        if not output.parent.is_dir():     # a mistyped folder is not made for you
            raise build.BadInput(f"{output.parent}: no such folder (for {output}); "
                                 "create it first")
        if output.resolve() == source.resolve():
            raise build.BadInput(f"{output}: the output would replace the document itself; "
                                 "name another with -o")
        built = build.build(text, str(source), fmt, theme, paper)
    except (build.BadInput, ThemeError) as exc:
        return _fail(str(exc))
    try:
        files.write_output(output, built.data)
    except files.FileRefused as exc:
        return _fail(f"cannot write {output}: {exc}")
    for warning in built.warnings:
        print(f"jobtracker: theme warning: {warning}", file=sys.stderr)
    if args.json:
        print_json({"output": str(output), "format": fmt,
                    "pages": built.pages if built.check else None,
                    "check": built.check.to_json() if built.check else None})
    if not built.ok:
        print(f"jobtracker: {_failed_check(built, output, source)}", file=sys.stderr)
        return EXIT_ALL_FAILED
    if not args.json:
        print(_summary(built, output, theme, paper))
    return EXIT_OK


def _configure_resume(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    child = actions.add_parser("import", help="write resume.md from a JSON Resume (1.0) file; "
                                              "an existing resume.md is never overwritten "
                                              "(init's untouched placeholder is replaced)")
    child.add_argument("file", metavar="FILE.json", help="a JSON Resume document")
    add_home(child, top=False)


@command("resume", "resume.md from another format: `resume import FILE.json` (JSON Resume)",
         _configure_resume)
def cmd_resume(args: argparse.Namespace, ws: Workspace) -> int:
    from jobtracker import files
    from jobtracker.render import build, jsonresume

    source = Path(args.file)
    try:
        text = _read_source(source)
        imported = jsonresume.import_text(text, _date_style(ws))
    except build.BadInput as exc:
        return _fail(str(exc))
    except jsonresume.ResumeImportError as exc:
        return _fail(f"{source}: {exc}")
    target = ws / RESUME
    placeholder = target.exists() and _is_placeholder(target)
    kept = target.exists() and not placeholder
    if kept:
        target = target.with_name(RESUME + ".new")
    try:
        files.write_workspace(ws.home, target, imported.markdown)
    except files.FileRefused as exc:
        return _fail(f"cannot write {target}: {exc}")
    if imported.legacy:
        print(f"{source}: {imported.legacy_line()}")
    if kept:
        print(f"{ws / RESUME} exists and is kept as it is; the imported resume is {target} "
              f"(compare the two, then move it over {RESUME} if you want it)")
    elif placeholder:
        print(f"wrote {target} from {source}, in place of the placeholder `init` wrote "
              f"(untouched); `jobtracker render {target}` shows it as a PDF")
    else:
        print(f"wrote {target} from {source}; `jobtracker render {target}` shows it as a PDF")
    return EXIT_OK


def _date_style(ws: Workspace) -> DateStyle:
    """config.yaml's `render.dates` when the workspace has a config.yaml, else English."""
    from jobtracker.render.settings import DateStyle
    from jobtracker.run.setup import config_of

    if not (ws / "config.yaml").exists():
        return DateStyle()
    return config_of(ws).render.dates


def _is_placeholder(path: Path) -> bool:
    """Whether `path` is still exactly the resume.md `init` wrote."""
    from jobtracker import files

    try:
        text = files.read_regular(path)
    except files.FileRefused:
        return False
    return text == _template(RESUME)


def _template(name: str) -> str:
    """A file `init` writes, as the package holds it."""
    from importlib import resources  # (tempfile, shutil, zip support): not for --help

    return resources.files("jobtracker.templates").joinpath(name).read_text(encoding="utf-8")
