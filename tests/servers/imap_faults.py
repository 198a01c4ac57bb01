"""A small IMAP server on 127.0.0.1 that misbehaves on purpose, for what Dovecot will
not do on demand: drop the connection in the middle of a literal, announce a 30 MB
literal, answer with garbage.

It speaks just enough IMAP4rev1 for jobtracker's client (CAPABILITY, LOGIN, EXAMINE,
UID SEARCH, UID FETCH with `BODY.PEEK[]<0.N>`, LOGOUT) and answers anything else
`BAD`. Every command line it receives is kept in `commands`, in order.

    with FaultImap({1: raw1, 2: raw2}, fault="drop", drop_at_uid=2) as server:
        cfg = ImapConfig(host="127.0.0.1", port=server.port, tls=False, ...)

Faults: `None` (well behaved), `"drop"` (the FETCH of `drop_at_uid` sends half its
literal, then the connection closes), `"huge"` (every FETCH announces a 30 MB
literal), `"garbage"` (EXAMINE is answered with bytes that are not IMAP),
`"garbage_greeting"` (the greeting itself is garbage).

Hostile faults (issue 32): `"drip"` with `drip_at` one of `greeting`, `login`,
`examine`, `search`, `fetch` sends that answer one byte every `drip_seconds`;
`"endless_literals"` answers a FETCH with literal after literal, each under the cap,
for ever; `"endless_untagged"` answers EXAMINE with untagged lines for ever;
`"echo"` refuses LOGIN quoting the command's arguments back; `"uid"` answers SEARCH
with `uid_words` as the UID list.
"""

from __future__ import annotations

import re
import socketserver
import threading
from typing import Any

HUGE = 30 * 1024 * 1024


class _Handler(socketserver.StreamRequestHandler):
    server: _Server

    def send(self, data: bytes) -> None:
        self.wfile.write(data)
        self.wfile.flush()

    def drip(self, phase: str, data: bytes) -> bool:
        """Send `data`, one byte at a time when this phase drips; False once stopped."""
        owner = self.server.owner
        if owner.fault != "drip" or owner.drip_at != phase:
            self.send(data)
            return True
        owner.dripping.set()
        try:
            for index in range(len(data)):
                self.send(data[index:index + 1])
                if owner.stopping.wait(owner.drip_seconds):
                    return False
        except OSError:
            return False
        return True

    def handle(self) -> None:
        owner = self.server.owner
        owner.connections += 1
        if owner.fault == "garbage_greeting":
            self.send(b"\x00\xffHTTP/1.1 200 OK\r\n\r\n")
            return
        if not self.drip("greeting",
                         b"* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] fault server ready\r\n"):
            return
        while True:
            line = self.rfile.readline(65536)
            if not line:
                return
            owner.commands.append(line.decode("utf-8", "replace").rstrip("\r\n"))
            parts = line.decode("utf-8", "replace").split(None, 2)
            if len(parts) < 2:
                continue
            tag, verb, rest = parts[0], parts[1].upper(), parts[2] if len(parts) > 2 else ""
            if not self.answer(owner, tag.encode(), verb, rest.strip()):
                return

    def answer(self, owner: FaultImap, tag: bytes, verb: str, rest: str) -> bool:
        if verb == "CAPABILITY":
            self.send(b"* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n" + tag + b" OK done\r\n")
        elif verb == "LOGIN":
            if owner.fault == "echo":     # a server that quotes what it was sent
                self.send(tag + b" NO [AUTHENTICATIONFAILED] unknown login "
                          + rest.encode("utf-8", "replace") + b" (" + rest.split(None, 1)[-1]
                          .strip('"').encode("utf-8", "replace") + b")\r\n")
                return True
            sent = rest.split(None, 1)[-1]
            ok = sent.strip('"').replace('\\"', '"').replace("\\\\", "\\") == owner.password
            return self.drip("login", tag + (b" OK logged in\r\n" if ok
                                             else b" NO [AUTHENTICATIONFAILED] no\r\n"))
        elif verb == "EXAMINE":
            if owner.fault == "garbage":
                self.send(b"\x1b[31m<html>\xff\xfe not imap at all\r\n")
                return False
            if owner.fault == "endless_untagged":
                try:
                    while not owner.stopping.is_set():
                        self.send(b"* OK [ALERT] " + b"x" * 1000 + b"\r\n" * 1)
                        owner.sent += 1016
                except OSError:
                    pass
                return False
            return self.drip("examine", b"* %d EXISTS\r\n* OK [UIDVALIDITY %d] ok\r\n%s OK "
                             b"[READ-ONLY] done\r\n" % (len(owner.messages), owner.uidvalidity,
                                                         tag))
        elif verb == "UID" and rest.upper().startswith("SEARCH"):
            low = int(re.search(r"UID (\d+):\*", rest).group(1))
            uids = [u for u in sorted(owner.messages) if u >= low] or sorted(owner.messages)[-1:]
            words = owner.uid_words or " ".join(map(str, uids))
            return self.drip("search", b"* SEARCH " + words.encode() + b"\r\n"
                             + tag + b" OK done\r\n")
        elif verb == "UID" and rest.upper().startswith("FETCH"):
            return self.fetch(owner, tag, rest)
        elif verb == "LOGOUT":
            self.send(b"* BYE bye\r\n" + tag + b" OK done\r\n")
            return False
        else:
            self.send(tag + b" BAD not here\r\n")
        return True

    def fetch(self, owner: FaultImap, tag: bytes, rest: str) -> bool:
        wanted = [int(u) for u in rest.split()[1].split(",")]
        cap = re.search(r"<0\.(\d+)>", rest)
        if owner.fault == "endless_literals":    # each literal under the cap, for ever
            try:
                seq = 0
                while not owner.stopping.is_set():
                    seq += 1
                    chunk = b"y" * 500_000
                    self.send(b"* %d FETCH (UID %d BODY[]<0> {%d}\r\n" % (seq, seq, len(chunk))
                              + chunk + b")\r\n")
                    owner.sent += len(chunk)
            except OSError:
                pass
            return False
        if owner.fault == "drip" and owner.drip_at == "fetch":
            raw = owner.messages[wanted[0]]
            return self.drip("fetch", b"* 1 FETCH (UID %d RFC822.SIZE %d BODY[]<0> {%d}\r\n"
                             % (wanted[0], len(raw), len(raw)) + raw + b")\r\n" + tag
                             + b" OK done\r\n")
        for seq, uid in enumerate(sorted(owner.messages), start=1):
            if uid not in wanted:
                continue
            raw = owner.messages[uid]
            body = raw[:int(cap.group(1))] if cap else raw
            if owner.fault == "huge":
                self.send(b"* %d FETCH (UID %d RFC822.SIZE %d BODY[]<0> {%d}\r\n"
                          % (seq, uid, HUGE, HUGE))
                try:
                    chunk = b"x" * 65536
                    for _ in range(HUGE // len(chunk)):
                        self.send(chunk)
                        owner.sent += len(chunk)
                except OSError:
                    pass
                return False
            self.send(b"* %d FETCH (UID %d RFC822.SIZE %d BODY[]<0> {%d}\r\n"
                      % (seq, uid, len(raw), len(body)))
            if owner.fault == "drop" and uid == owner.drop_at_uid:
                self.send(body[:len(body) // 2])
                return False                 # the connection closes mid-literal
            self.send(body + b")\r\n")
            owner.sent += len(body)
        self.send(tag + b" OK done\r\n")
        return True


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    owner: FaultImap


class FaultImap:
    def __init__(self, messages: dict[int, bytes], *, fault: str | None = None,
                 drop_at_uid: int = 0, uidvalidity: int = 7, password: str = "pw",
                 port: int = 0, drip_at: str = "", drip_seconds: float = 0.2,
                 uid_words: str = "") -> None:
        self.messages = messages
        self.fault = fault
        self.drip_at = drip_at
        self.drip_seconds = drip_seconds
        self.uid_words = uid_words
        self.stopping = threading.Event()
        self.dripping = threading.Event()     # set once a dripped answer has begun
        self.connections = 0
        self.drop_at_uid = drop_at_uid
        self.uidvalidity = uidvalidity
        self.password = password
        self.commands: list[str] = []
        self.sent = 0             # literal bytes written
        self._server = _Server(("127.0.0.1", port), _Handler)
        self._server.owner = self
        self.port = int(self._server.server_address[1])
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> FaultImap:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)
