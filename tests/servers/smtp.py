"""A real SMTP server on 127.0.0.1 for the digest's tests: aiosmtpd in its own thread.

    with SmtpServer() as server:            # plain; or tls="starttls" / tls="implicit"
        ...send to 127.0.0.1:server.port...
        server.wait_for(1)                  # the mails it took, parsed

`user`/`password` make it require that login (over plain text too, as a loopback
test server may). STARTTLS and implicit TLS use a self-signed certificate for
127.0.0.1 made with `openssl`; point SSL_CERT_FILE at `server.cert` to trust it.
aiosmtpd cannot bind port 0 (its readiness check connects to the port it was
given), so a free port is picked first.
"""

from __future__ import annotations

import email
import email.policy
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def self_signed(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


@dataclass(frozen=True)
class Received:
    mail_from: str
    rcpt_tos: list[str]
    raw: bytes
    login: str | None

    @property
    def message(self) -> EmailMessage:
        parsed = email.message_from_bytes(self.raw, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        return parsed


class _Handler:
    def __init__(self, server: SmtpServer) -> None:
        self.server = server

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        login = session.auth_data.decode() if isinstance(session.auth_data, bytes) else None
        with self.server.lock:
            self.server.received.append(Received(envelope.mail_from, list(envelope.rcpt_tos),
                                                 bytes(envelope.content), login))
        return "250 Message accepted for delivery"


class SmtpServer:
    def __init__(self, *, tls: str | None = None, user: str | None = None,
                 password: str | None = None) -> None:
        self.tls, self.user, self.password = tls, user, password
        self.port = free_port()
        self.received: list[Received] = []
        self.lock = threading.Lock()
        self._folder = tempfile.TemporaryDirectory()
        self.cert: Path | None = None
        kwargs: dict[str, Any] = {}
        if tls is not None:
            self.cert, key = self_signed(Path(self._folder.name))
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(self.cert, key)
            kwargs["tls_context" if tls == "starttls" else "ssl_context"] = context
            if tls == "starttls":
                kwargs["require_starttls"] = True
        if user is not None:
            kwargs.update(authenticator=self._authenticate, auth_required=True,
                          auth_require_tls=tls is not None)
        self.controller = Controller(_Handler(self), hostname="127.0.0.1", port=self.port,
                                     **kwargs)

    def _authenticate(self, server: Any, session: Any, envelope: Any, mechanism: str,
                      auth_data: Any) -> AuthResult:
        ok = (isinstance(auth_data, LoginPassword) and auth_data.login.decode() == self.user
              and auth_data.password.decode() == self.password)
        return AuthResult(success=ok, handled=False, auth_data=auth_data.login if ok else None)

    def __enter__(self) -> SmtpServer:
        self.controller.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.controller.stop()
        self._folder.cleanup()

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Received]:
        """The mails taken, once there are `count` of them (waiting on the condition)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.received) >= count:
                    return list(self.received)
            time.sleep(0.01)
        raise AssertionError(f"the SMTP server took {len(self.received)} mail(s), "
                             f"not {count}, in {timeout} s")


class SilentServer:
    """Takes TCP connections on 127.0.0.1 and never says a word: an SMTP or HTTP server
    that hangs. Connections are held open until the server stops."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = int(self.sock.getsockname()[1])
        self.accepted: list[socket.socket] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        self.sock.settimeout(0.05)
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except (TimeoutError, OSError):
                continue
            self.accepted.append(conn)

    def __enter__(self) -> SilentServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)
        for conn in self.accepted:
            conn.close()
        self.sock.close()
