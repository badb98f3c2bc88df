"""An IMAP server that misbehaves on cue, for the IMAP source's tests of bad input.

    hostile-imap.py MODE STEP

Plain IMAP on 127.0.0.1 and a free port, which it prints on a line of its own once it listens;
one connection at a time, each served alike. It answers as dovecot does (greeting, CAPABILITY,
LOGIN of any user and password, SELECT/EXAMINE of a mailbox with two messages, UID 1 unseen,
SEARCH, FETCH, NOOP, ENABLE, IDLE/DONE, LOGOUT) until STEP, where MODE takes the place of the
answer:

  STEP  greeting | login | select | idle (right after "+ idling")
  MODE  literal         `* 1 FETCH (BODY[] {104857600}`, then the 100 MB, as fast as it is read
        endless-line    `* OK ` and then bytes without a line end, without end
        unknown         responses no RFC defines, then the normal answer
        bye             `* BYE`, then the connection closes
        stuck           nothing, ever (the connection stays open)
        close-mid-line  half a response line, then the connection closes

What it did is logged to standard error, a line each: `connection`, `command <TAG> <VERB>`,
`misbehaving <MODE> at <STEP>`, and `client closed after <N> bytes` or `sent <N> bytes`.
"""
import socket, sys, threading

MODE, STEP = sys.argv[1], sys.argv[2]
CAPABILITIES = b"IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ AUTH=PLAIN"
LITERAL = 104857600
CHUNK = b"x" * 65536


def log(*words):
    print(*words, file=sys.stderr, flush=True)


class Client:
    def __init__(self, conn):
        self.conn = conn
        self.buffer = b""

    def send(self, data):
        self.conn.sendall(data)

    def line(self):
        while b"\r\n" not in self.buffer:
            chunk = self.conn.recv(65536)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\r\n", 1)
        return line

    def stream(self, head, total):
        """Sends `head`, then up to `total` bytes (None: without end); logs how far it got."""
        sent = 0
        try:
            self.send(head)
            while total is None or sent < total:
                piece = CHUNK if total is None else CHUNK[: total - sent]
                self.send(piece)
                sent += len(piece)
        except OSError:
            log("client closed after", sent, "bytes")
            return False
        log("sent", sent, "bytes")
        return True

    def misbehave(self):
        """MODE in place of the answer; whether the session goes on afterwards."""
        log("misbehaving", MODE, "at", STEP)
        if MODE == "literal":
            if not self.stream(b"* 1 FETCH (BODY[] {%d}\r\n" % LITERAL, LITERAL):
                return False
            self.send(b")\r\n")
            return True
        if MODE == "endless-line":
            self.stream(b"* OK ", None)
            return False
        if MODE == "unknown":
            self.send(b"* XYZZY\r\n* 1 FROB (QUUX {3}\r\nbar ZOT)\r\n* OK [NOSUCHCODE 1 2 3] what\r\n* 7 RUMBLE\r\n")
            return True
        if MODE == "bye":
            self.send(b"* BYE Going away at " + STEP.encode() + b"\r\n")
            return False
        if MODE == "stuck":
            while self.conn.recv(65536):
                pass
            log("client closed after", 0, "bytes")
            return False
        if MODE == "close-mid-line":
            self.send(b"* 3 EXI")
            return False
        raise SystemExit(f"unknown mode {MODE}")

    def serve(self):
        log("connection")
        if STEP == "greeting":
            if not self.misbehave():
                return
        self.send(b"* OK [CAPABILITY " + CAPABILITIES + b"] Dovecot ready.\r\n")
        while (line := self.line()) is not None:
            tag, _, rest = line.partition(b" ")
            verb = rest.split(b" ", 1)[0].upper()
            if verb == b"UID":
                verb = rest.split(b" ", 2)[1].upper()
            log("command", tag.decode(errors="replace"), verb.decode(errors="replace"))
            if verb == b"LOGIN" and STEP == "login" or verb in (b"SELECT", b"EXAMINE") and STEP == "select":
                if not self.misbehave():
                    return
            if verb == b"CAPABILITY":
                self.send(b"* CAPABILITY " + CAPABILITIES + b"\r\n" + tag + b" OK Capability completed.\r\n")
            elif verb == b"LOGIN":
                self.send(tag + b" OK [CAPABILITY " + CAPABILITIES + b"] Logged in\r\n")
            elif verb in (b"SELECT", b"EXAMINE"):
                self.send(
                    b"* FLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft)\r\n"
                    b"* OK [PERMANENTFLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft \\*)] Flags permitted.\r\n"
                    b"* 2 EXISTS\r\n* 0 RECENT\r\n* OK [UNSEEN 1] First unseen.\r\n"
                    b"* OK [UIDVALIDITY 1700000000] UIDs valid\r\n* OK [UIDNEXT 3] Predicted next UID\r\n"
                    + tag + b" OK [READ-WRITE] Select completed (0.001 + 0.000 secs).\r\n")
            elif verb == b"SEARCH":
                found = b" 1" if b"UNSEEN" in rest.upper() else b" 1 2"
                self.send(b"* SEARCH" + found + b"\r\n" + tag + b" OK Search completed.\r\n")
            elif verb == b"FETCH":
                self.send(b"* 1 FETCH (UID 1 FLAGS ())\r\n* 2 FETCH (UID 2 FLAGS (\\Seen))\r\n"
                          + tag + b" OK Fetch completed.\r\n")
            elif verb == b"IDLE":
                self.send(b"+ idling\r\n")
                if STEP == "idle" and not self.misbehave():
                    return
                if self.line() is None:
                    return
                self.send(tag + b" OK Idle completed.\r\n")
            elif verb == b"LOGOUT":
                self.send(b"* BYE Logging out\r\n" + tag + b" OK Logout completed.\r\n")
                return
            elif verb in (b"NOOP", b"ENABLE", b"STORE", b"ID"):
                self.send(tag + b" OK " + verb + b" completed.\r\n")
            else:
                self.send(tag + b" BAD Error in IMAP command\r\n")


def handle(conn):
    try:
        Client(conn).serve()
    except OSError as e:
        log("connection error", e)
    finally:
        conn.close()


listener = socket.create_server(("127.0.0.1", 0))
print(listener.getsockname()[1], flush=True)
while True:
    conn, _ = listener.accept()
    threading.Thread(target=handle, args=(conn,), daemon=True).start()
