"""A real Dovecot IMAP server on 127.0.0.1, configured by the test, stopped by its pid.

`Dovecot.start()` writes a config of its own in a fresh folder (base_dir, state_dir,
log, a self-signed certificate for 127.0.0.1 made with `openssl`), listens with
STARTTLS-capable plain IMAP on one port and implicit TLS on another, accepts any user
with the password `PASSWORD` (a static passdb), and keeps each user's mail in
`mail/<user>/` as a Maildir that tests write into (`deliver`).

Dovecot runs as root here: `imap-login` refuses root and mail processes refuse low
uids, so the login user is `dovenull`, mail is owned by `dovecot`, and every parent
folder is traversable. It runs in the foreground (`dovecot -F -c FILE`) as the test's
child, so it is stopped with SIGTERM to its pid and reaped (a daemonised master
would be left a zombie where no init reaps orphans).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

PASSWORD = "Tr0ub4dor-and-3"    # what every user logs in with
_counter = 0


def dovecot_binary() -> str | None:
    return shutil.which("dovecot") or (
        "/usr/sbin/dovecot" if Path("/usr/sbin/dovecot").exists() else None)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


CONFIG = """\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <{root}/cert.pem
ssl_key = <{root}/key.pem
disable_plaintext_auth = no
auth_mechanisms = plain login
default_login_user = dovenull
default_internal_user = dovecot
first_valid_uid = 1
mail_location = maildir:{root}/mail/%u
passdb {{
  driver = static
  args = password={password}
}}
userdb {{
  driver = static
  args = uid=dovecot gid=dovecot home={root}/home/%u
}}
service imap-login {{
  inet_listener imap {{
    port = {plain}
  }}
  inet_listener imaps {{
    port = {tls}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
"""


class Dovecot:
    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="jt-dovecot-"))
        self.plain_port = _free_port()
        self.tls_port = _free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def cert(self) -> Path:
        return self.root / "cert.pem"

    def start(self) -> Dovecot:
        binary = dovecot_binary()
        assert binary, "dovecot is not installed"
        os.chmod(self.root, 0o755)
        for sub in ("run", "state", "mail", "home"):
            (self.root / sub).mkdir(mode=0o755)
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
             "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
             "-keyout", str(self.root / "key.pem"), "-out", str(self.cert)],
            check=True, capture_output=True, timeout=60)
        shutil.chown(self.root / "mail", "dovecot", "dovecot")
        shutil.chown(self.root / "home", "dovecot", "dovecot")
        conf = self.root / "dovecot.conf"
        conf.write_text(CONFIG.format(root=self.root, password=PASSWORD,
                                      plain=self.plain_port, tls=self.tls_port))
        # Output to a file, never a pipe: its children would keep a pipe open.
        with open(self.root / "start.log", "wb") as out:
            self.process = subprocess.Popen([binary, "-F", "-c", str(conf)], stdout=out,
                                            stderr=out, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and self.process.poll() is None:
            if self._listening():
                return self
            time.sleep(0.05)
        log = self.log()
        self.stop()
        raise RuntimeError(f"dovecot did not start: {log}")

    def _listening(self) -> bool:
        try:
            for port in (self.plain_port, self.tls_port):
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:
            return False
        return True

    def log(self) -> str:
        parts = [p.read_text(errors="replace") for p in (self.root / "dovecot.log",
                                                          self.root / "start.log") if p.exists()]
        return "\n".join(parts)[-3000:]

    def stop(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
            self.process = None
        shutil.rmtree(self.root, ignore_errors=True)

    def maildir(self, user: str) -> Path:
        """The user's Maildir (created, owned by dovecot)."""
        folder = self.root / "mail" / user
        for sub in ("", "cur", "new", "tmp"):
            (folder / sub).mkdir(mode=0o755, exist_ok=True)
            shutil.chown(folder / sub, "dovecot", "dovecot")
        return folder

    def deliver(self, user: str, raw: bytes, seen: bool = False) -> Path:
        """A message file in the user's INBOX, as a delivery agent would leave it."""
        global _counter
        _counter += 1
        folder = self.maildir(user)
        name = f"{int(time.time())}.M{_counter}P{os.getpid()}.jobtracker-test"
        path = folder / ("cur" if seen else "new") / (name + (":2,S" if seen else ""))
        path.write_bytes(raw)
        shutil.chown(path, "dovecot", "dovecot")
        return path

