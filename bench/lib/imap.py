"""The measuring side of scenario 12 (bench/lib/imap.sh): deliveries into a dovecot through LMTP
and another client's \\Seen, each timed to the push of a raw IDLE client on the same server
(bench/imap-floor, the floor) and, when a badged socket is given, to the EVENT of a watcher of
badged's channel fed by badged-sources' IMAP source. Prints one JSON line (microseconds), and
fails (status 1, the reason on standard error) when a count is not the one the changes call for.

  push LMTP HOST PORT USER PASSWORD CAFILE N [SOCKET CHANNEL]
      N messages delivered one at a time, each once the one before has been seen by all;
      then, one at a time, each of them marked \\Seen by an IMAP session of its own; with a
      watcher, also what the program adds to the floor: its percentile less the floor's, the
      ratio of the two, and the percentiles of each change's own difference (watcher − floor).
      BENCH_IMAP_GAP_MS (0): a pause before each change, so that none lands while the program's
      connection is out of IDLE fetching the last one's flags
  until SOCKET CHANNEL COUNT
      a watcher of CHANNEL: prints `ready` once it watches, then the wall clock (ns, as
      `date +%s%N`) when CHANNEL shows COUNT (what a restart or a healed link is timed to)
"""
import imaplib, json, os, smtplib, ssl, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sources import Watcher, fail, percentile  # noqa: E402

FLOOR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "imap-floor")


class Floor:
    """bench/imap-floor running; `until` reads its lines to the one that matches."""

    def __init__(self, host, port, user, password, cafile):
        self.child = subprocess.Popen([FLOOR, host, port, user, password, cafile], stdout=subprocess.PIPE)
        if self.child.stdout.readline() != b"ready\n":
            fail("imap-floor did not enter IDLE")

    def until(self, predicate):
        while True:
            line = self.child.stdout.readline()
            if not line:
                fail("imap-floor's connection closed")
            stamp, response = line.rstrip(b"\n").split(b" ", 1)
            if predicate(response):
                return int(stamp)

    def stop(self):
        self.child.terminate()
        self.child.wait()


def summary(name, values_ns):
    micros = [v // 1000 for v in values_ns]
    return {f"{name}_p50_us": percentile(micros, 50), f"{name}_p99_us": percentile(micros, 99),
            f"{name}_max_us": max(micros)}


def added(name, badged, floor):
    """What the program adds to the floor on the same changes (µs; the ratio of the p99s)."""
    mine, base = summary(name, badged), summary(name, floor)
    each = [(b - f) // 1000 for b, f in zip(badged, floor)]
    return {f"{name}_added_p50_us": mine[f"{name}_p50_us"] - base[f"{name}_p50_us"],
            f"{name}_added_p99_us": mine[f"{name}_p99_us"] - base[f"{name}_p99_us"],
            f"{name}_ratio_p99": round(mine[f"{name}_p99_us"] / base[f"{name}_p99_us"], 4),
            f"{name}_each_added_p50_us": percentile(each, 50), f"{name}_each_added_p99_us": percentile(each, 99)}


def until(sock, channel, count):
    watcher = Watcher(sock, [channel])
    print("ready", flush=True)
    watcher.until(channel, count, timeout=600)
    print(time.time_ns(), flush=True)


def push(lmtp, host, port, user, password, cafile, n, sock=None, channel=None):
    session = imaplib.IMAP4_SSL(host, int(port), ssl_context=ssl.create_default_context(cafile=cafile))
    session.login(user, password)
    exists = int(session.select("INBOX")[1][0])
    unseen = len(session.search(None, "UNSEEN")[1][0].split())
    floor = Floor(host, port, user, password, cafile)
    watcher = Watcher(sock, [channel]) if sock else None
    if watcher:
        watcher.until(channel, unseen)
    delivered = {"floor": [], "badged": []}
    sender = smtplib.LMTP(lmtp)
    gap = int(os.environ.get("BENCH_IMAP_GAP_MS", "0")) / 1000
    for i in range(n):
        time.sleep(gap)
        start = time.monotonic_ns()
        sender.sendmail("bench@example.org", [user], f"Subject: b{i}\r\nMessage-ID: <b{i}.{start}@bench>\r\n\r\nx\r\n")
        exists += 1
        delivered["floor"].append(floor.until(lambda r: r == b"* %d EXISTS" % exists) - start)
        if watcher:
            delivered["badged"].append(watcher.until(channel, unseen + i + 1) - start)
    sender.quit()
    session.noop()  # the session learns of the new messages
    unseen += n
    read = {"floor": [], "badged": []}
    for number in range(exists - n + 1, exists + 1):
        time.sleep(gap)
        start = time.monotonic_ns()
        assert session.store(str(number), "+FLAGS", "(\\Seen)")[0] == "OK"
        unseen -= 1
        read["floor"].append(floor.until(lambda r: r.startswith(b"* %d FETCH" % number) and b"\\Seen" in r) - start)
        if watcher:
            read["badged"].append(watcher.until(channel, unseen) - start)
    session.logout()
    floor.stop()
    result = {"messages": n, "gap_ms": round(gap * 1000), **summary("deliver_floor", delivered["floor"]), **summary("seen_floor", read["floor"])}
    if watcher:
        result.update(summary("deliver", delivered["badged"]))
        result.update(summary("seen", read["badged"]))
        result.update(added("deliver", delivered["badged"], delivered["floor"]))
        result.update(added("seen", read["badged"], read["floor"]))
    print(json.dumps(result))


def main(argv):
    if argv[:1] == ["push"] and len(argv) in (8, 10):
        push(*argv[1:7], int(argv[7]), *argv[8:10])
    elif argv[:1] == ["until"] and len(argv) == 4:
        until(argv[1], argv[2], int(argv[3]))
    else:
        fail(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
