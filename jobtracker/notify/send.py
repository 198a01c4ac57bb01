"""`digest --send`, the end of `jobtracker-tui --run`, and `check --send-test`.

A send reads the digest once for every channel in `notify.to`, delivers each channel's
view of it at the same time (each within `notify.deadline` seconds, all of it: the
credential command, connecting, talking), writes the archive, and only then records
in one short transaction which jobs each channel that took it announced. A channel
that failed records nothing, so it gets the same jobs next time; it is named, with
its reason, and the send's exit code is 1.

Every reason passes a Redactor built from the channels' credentials and URLs before it
is printed, stored or archived (jobtracker/secrets.py).
"""

from __future__ import annotations

import asyncio
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from jobtracker import channels, credentials, store
from jobtracker.channels import Channel, ChannelError, Message
from jobtracker.clock import now_iso
from jobtracker.config import Config, NotifyConfig, Profile
from jobtracker.notify import archive, message, record
from jobtracker.notify.digest import Digest, build
from jobtracker.run.setup import config_of
from jobtracker.secrets import Redactor
from jobtracker.store import StoreError
from jobtracker.workers.reporters import ascii_line
from jobtracker.yamlfile import ConfigError

if TYPE_CHECKING:
    from jobtracker.workspace import Workspace


@dataclass(frozen=True)
class Outcome:
    channel: str
    ok: bool
    detail: str        # where it went, or why not (redacted)


@dataclass
class SendReport:
    digest: Digest
    outcomes: list[Outcome] = field(default_factory=list)
    file: str | None = None

    @property
    def failed(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.ok]

    @property
    def exit_code(self) -> int:
        return 1 if self.failed else 0

    def lines(self) -> list[str]:
        d = self.digest
        if d.empty:
            return ["nothing new; no digest sent"]
        kinds = (f"{len(d.matches):,} match(es), {len(d.proposals):,} proposal(s), "
                 f"{len(d.due):,} due, {len(d.interviews):,} interview(s)")
        out = [f"{kinds}" + (f" -> {self.file}" if self.file else "")]
        out += [f"{o.channel}: {'sent to ' if o.ok else 'FAILED: '}{o.detail}"
                for o in self.outcomes]
        return out

    def to_json(self) -> dict[str, Any]:
        return {**self.digest.to_json(), "file": self.file,
                "delivered": {o.channel: o.detail for o in self.outcomes if o.ok},
                "failed": {o.channel: o.detail for o in self.outcomes if not o.ok}}


def settings_of(notify: NotifyConfig, channel: str) -> Any:
    found = notify.settings.get(channel)
    assert found is not None    # config.py requires the settings of every channel in `to`
    return found


def redactor_for(notify: NotifyConfig, secrets: list[str]) -> Redactor:
    urls = [url for name, settings in notify.settings.items() if name in channels.REGISTRY
            for url in channels.REGISTRY[name].urls(settings)]
    return Redactor.of(tokens=secrets, urls=urls)


def _secret(channel: Channel[Any], settings: Any, timeout: float) -> str | None:
    source = channel.secrets(settings)
    if source is None:
        return None
    return credentials.resolve(source.env, source.command,
                               env_field=f"notify.{channel.name}.{source.env_field}",
                               command_field=f"notify.{channel.name}.{source.command_field}",
                               timeout=timeout)


async def deliver(notify: NotifyConfig, name: str, message: Message) -> Outcome:
    """One channel, bounded by `notify.deadline` in all: a server that never answers,
    a credential command that hangs, each ends there."""
    channel = channels.REGISTRY[name]
    settings = settings_of(notify, name)
    deadline = notify.deadline
    started = time.monotonic()
    secrets: list[str] = []
    try:
        async with asyncio.timeout(deadline):
            # In a thread, with its own timeout no longer than the deadline: the thread
            # ends by then too, so nothing outlives the send.
            secret = await asyncio.to_thread(_secret, channel, settings, deadline)
            if secret:
                secrets.append(secret)
            left = max(0.1, deadline - (time.monotonic() - started))
            detail = await channel.send(settings, message, secret, left)
        outcome = Outcome(name, True, detail)
    except TimeoutError:
        outcome = Outcome(name, False, f"did not finish within {deadline:g} s "
                                       "(notify.deadline)")
    except (ChannelError, credentials.CredentialError) as exc:
        outcome = Outcome(name, False, str(exc))
    except (OSError, ValueError, UnicodeError) as exc:
        outcome = Outcome(name, False, f"{type(exc).__name__}: {exc}")
    redact = redactor_for(notify, secrets)
    return Outcome(outcome.channel, outcome.ok, redact.cut(outcome.detail, 300))


async def send_digest(home: Path, config: Config, profile: Profile, *, now: str,
                      since: str | None = None) -> SendReport:
    notify = config.notify or NotifyConfig()
    db = home / "jobtracker.db"
    async with store.connect(db) as conn:
        digest = await build(conn, db, profile=profile, followup=config.followup,
                             min_verdict=notify.min_verdict, channels=notify.to, now=now,
                             zone=config.timezone, since=since, home=home)
    report = SendReport(digest)
    if digest.empty:
        return report
    views = {name: digest.for_channel(name) for name in notify.to}
    network = [name for name in notify.to if name != "file" and not views[name].empty]
    results = await asyncio.gather(*(deliver(notify, name, message.of(views[name]))
                                     for name in network))
    outcomes = {o.channel: o for o in results}
    delivered = {o.channel: o.detail for o in results if o.ok}
    failed = {o.channel: o.detail for o in results if not o.ok}
    try:
        report.file = archive.write(home, digest, delivered, failed)
        if "file" in notify.to:
            outcomes["file"] = Outcome("file", True, report.file)
    except OSError as exc:
        outcomes["file"] = Outcome("file", False, f"the archive could not be written: {exc}")
    report.outcomes = [outcomes[name] for name in notify.to if name in outcomes]
    async with store.connect(db) as conn, store.write(conn):
        await record.record(
            conn, sent_at=now, since=digest.since, file=report.file,
            delivered={o.channel: [m.id for m in views[o.channel].matches]
                       for o in report.outcomes if o.ok},
            failed={o.channel: o.detail for o in report.outcomes if not o.ok})
    return report


async def send_test(home: Path, notify: NotifyConfig) -> list[Outcome]:
    """A test message to every channel in `notify.to` (the file channel: the archive
    folder takes a file). Nothing is recorded."""
    outcomes = []
    for name in notify.to:
        if name == "file":
            try:
                outcomes.append(Outcome("file", True, archive.check_writable(home)))
            except OSError as exc:
                outcomes.append(Outcome("file", False, f"{type(exc).__name__}: {exc}"))
            continue
        outcomes.append(await deliver(notify, name, Message.test(name)))
    return outcomes


def after_run(ws: Workspace, out: TextIO | None = None) -> None:
    """The end of `jobtracker-tui --run`: `digest --send` when config.yaml has `notify`,
    said in the run's own line format. A failed channel is a line naming it; the run's
    own exit code stands (docs/notify.md)."""
    out = out or sys.stdout
    try:
        config = config_of(ws)
        if config.notify is None:
            return
        report = asyncio.run(send_digest(ws.home, config, ws.profile(), now=now_iso()))
        lines = report.lines()
    except (ConfigError, StoreError) as exc:
        lines = [f"not sent: {exc}"]
    for text in lines:
        print(ascii_line(f"{datetime.now():%H:%M:%S} digest {text}"), file=out)
    out.flush()


def check_channels(ws: Workspace, config: Config, out: TextIO | None = None) -> int:
    """`jobtracker check --send-test`: one line per channel; 1 when one did not take it,
    2 when config.yaml has no `notify`."""
    out = out or sys.stdout
    if config.notify is None:
        print("jobtracker: --send-test: config.yaml has no notify: section "
              "(docs/notify.md)", file=sys.stderr)
        return 2
    outcomes = asyncio.run(send_test(ws.home, config.notify))
    for o in outcomes:
        if o.ok:
            print(f"notify: {o.channel}: test message sent to {o.detail}", file=out)
        else:
            print(f"jobtracker: notify: {o.channel}: {o.detail}", file=sys.stderr)
    return 1 if any(not o.ok for o in outcomes) else 0
