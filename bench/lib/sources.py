"""The measuring side of scenario 11 (bench/lib/sources.sh): a watcher on badged's socket and the
Maildir writes it times, as a mail client and a delivery agent make them. Each command prints one
JSON line and fails (status 1, the reason on standard error) when a count is not exactly the one
the writes it made call for.

  fill MAILDIR N                       N messages: a third in new/, the rest in cur/ with flags
                                       (unread :2, / :2,F, read :2,S / :2,RS, trashed :2,T);
                                       prints the count a source must find
  latency SOCKET CHANNEL MAILDIR N GAP one delivery at a time (written in tmp/, rename(2) into
                                       new/) timed to the watcher's EVENT with the count one
                                       higher; then N unread messages in cur/, and one flag
                                       rename (:2, to :2,S) at a time timed to the count one
                                       lower; GAP ms between changes
  burst SOCKET CHANNEL MAILDIR N       N messages made in a folder beside the Maildir, then
                                       moved into new/ at once (`mv`), timed until the watcher
                                       sees the count N higher; the events it saw on the way
  recount SOCKET CHANNEL COUNT LOG -- CMD
                                       starts CMD (badged-sources, its standard error appended
                                       to LOG) and times it to the event with COUNT; its peak
                                       RSS (VmHWM) then; leaves it running and prints its pid
  wait SOCKET COUNT CHANNEL...         until every CHANNEL shows COUNT
"""
import json, os, re, socket, subprocess, sys, time

COUNT = re.compile(rb"^(?:EVENT|STATE) (\S+) count=(\d+) ")


class Watcher:
    """A connection WATCHing channels; `counts` holds the last count seen of each."""

    def __init__(self, path, channels):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = b""
        self.counts = {}
        self.events = 0
        self.sock.sendall(b"WATCH " + " ".join(channels).encode() + b"\n")
        while True:
            line = self.line()
            if line == b"OK watching":
                break
            self.note(line)

    def line(self, deadline=None):
        while b"\n" not in self.buffer:
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                self.sock.settimeout(left)
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("badged closed the connection")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def note(self, line):
        m = COUNT.match(line)
        if m:
            self.counts[m.group(1).decode()] = int(m.group(2))
            if line.startswith(b"EVENT"):
                self.events += 1

    def until(self, channel, count, timeout=60):
        """Reads until `channel` shows `count`; the monotonic time (ns) of that line."""
        deadline = time.monotonic() + timeout
        while self.counts.get(channel) != count:
            try:
                self.note(self.line(deadline))
            except TimeoutError:
                fail(f"{channel} did not reach {count} in {timeout} s (last seen {self.counts.get(channel)})")
        return time.monotonic_ns()


def fail(reason):
    print(reason, file=sys.stderr)
    sys.exit(1)


def message(maildir, name, place, serial):
    """Writes a message in tmp/ and renames it to place/name: a delivery agent's two steps."""
    temporary = os.path.join(maildir, "tmp", name.split(":")[0])
    with open(temporary, "w") as f:
        f.write(f"Subject: {serial}\nMessage-ID: <{serial}@bench.example>\n\nbody\n")
    os.rename(temporary, os.path.join(maildir, place, name))


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))]


def fill(maildir, n):
    flags = ["", "F", "S", "RS", "T"]
    unread = 0
    for i in range(n):
        if i % 3 == 0:
            message(maildir, f"{i}.fill.bench", "new", i)
            unread += 1
        else:
            f = flags[i % len(flags)]
            message(maildir, f"{i}.fill.bench:2,{f}", "cur", i)
            unread += "S" not in f and "T" not in f
    print(json.dumps({"messages": n, "unread": unread}))


def latency(path, channel, maildir, n, gap_ms):
    watcher = Watcher(path, [channel])
    count = watcher.counts.get(channel, 0)
    gap = gap_ms / 1000
    delivered = []
    for i in range(n):
        time.sleep(gap)
        name = f"{i}.deliver.bench"
        temporary = os.path.join(maildir, "tmp", name)
        with open(temporary, "w") as f:
            f.write(f"Subject: {i}\n\nbody\n")
        start = time.monotonic_ns()
        os.rename(temporary, os.path.join(maildir, "new", name))
        count += 1
        delivered.append((watcher.until(channel, count) - start) / 1000)
    # N unread messages in cur/ at once, then one read at a time.
    for i in range(n):
        message(maildir, f"{i}.read.bench:2,", "cur", i)
    count += n
    watcher.until(channel, count)
    read = []
    for i in range(n):
        time.sleep(gap)
        old = os.path.join(maildir, "cur", f"{i}.read.bench:2,")
        start = time.monotonic_ns()
        os.rename(old, old + "S")
        count -= 1
        read.append((watcher.until(channel, count) - start) / 1000)
    print(json.dumps({
        "messages": n, "gap_ms": gap_ms, "final_count": count,
        "deliver_p50_us": percentile(delivered, 50), "deliver_p99_us": percentile(delivered, 99),
        "deliver_max_us": max(delivered),
        "read_p50_us": percentile(read, 50), "read_p99_us": percentile(read, 99), "read_max_us": max(read),
    }))


def burst(path, channel, maildir, n):
    watcher = Watcher(path, [channel])
    count = watcher.counts.get(channel, 0)
    staging = maildir.rstrip("/") + ".staging"
    os.makedirs(staging)
    for i in range(n):
        with open(os.path.join(staging, f"{i}.burst.bench"), "w") as f:
            f.write(f"Subject: {i}\n\nbody\n")
    events = watcher.events
    start = time.monotonic_ns()
    # One mv of every file, as a script or a sync tool moving mail in does.
    subprocess.run(["find", staging, "-type", "f", "-exec", "mv", "-t", os.path.join(maildir, "new"), "{}", "+"],
                   check=True)
    moved = time.monotonic_ns()
    end = watcher.until(channel, count + n)
    print(json.dumps({
        "messages": n, "final_count": count + n, "seconds": (end - start) / 1e9, "mv_seconds": (moved - start) / 1e9,
        "events": watcher.events - events,
    }))


def recount(path, channel, expect, log, command):
    watcher = Watcher(path, [channel])
    start = time.monotonic_ns()
    # Nothing of this program's own output: the shell that reads it would wait for the child too.
    with open(log, "a") as stderr:
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr)
    end = watcher.until(channel, expect, timeout=600)
    with open(f"/proc/{child.pid}/status") as f:
        fields = dict(line.split(":", 1) for line in f)
    print(json.dumps({
        "messages_counted": expect, "seconds": (end - start) / 1e9, "pid": child.pid,
        "hwm_kb": int(fields["VmHWM"].split()[0]), "rss_kb": int(fields["VmRSS"].split()[0]),
    }))


def wait(path, count, channels):
    watcher = Watcher(path, channels)
    for channel in channels:
        watcher.until(channel, count)
    print(json.dumps({"channels": len(channels), "count": count}))


def main(argv):
    command = argv[0]
    if command == "fill":
        fill(argv[1], int(argv[2]))
    elif command == "latency":
        latency(argv[1], argv[2], argv[3], int(argv[4]), float(argv[5]))
    elif command == "burst":
        burst(argv[1], argv[2], argv[3], int(argv[4]))
    elif command == "recount" and argv[5] == "--":
        recount(argv[1], argv[2], int(argv[3]), argv[4], argv[6:])
    elif command == "wait":
        wait(argv[1], int(argv[2]), argv[3:])
    else:
        fail(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
