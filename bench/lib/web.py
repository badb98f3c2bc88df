#!/usr/bin/python3
"""The measuring side of bench scenario 14 (badged-web): N Server-Sent Events clients of
badged-web on raw sockets and one protocol WATCH of badged itself (what `badgectl watch`
reads), all read with epoll in this one process; each INCR sent to badged is timed until each
client has read its event.

Usage: web.py <badged socket> <base URL http://host:port> <token> <clients> <changes> <gap ms>
Prints one JSON line: p50_us, p99_us (over every client's event of every change), watch_p50_us,
watch_p99_us (the WATCH connection's EVENT line), clients, changes.
"""
import json
import resource
import select
import socket
import sys
import time
import urllib.parse


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def connect_sse(host, port, token):
    s = socket.create_connection((host, port))
    s.sendall((f"GET /events HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
               "Accept: text/event-stream\r\n\r\n").encode())
    s.setblocking(False)
    return s


def main():
    path, base, token = sys.argv[1], sys.argv[2], sys.argv[3]
    clients, changes, gap_ms = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
    url = urllib.parse.urlsplit(base)
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    poller = select.epoll()
    streams = {}
    for _ in range(clients):
        s = connect_sse(url.hostname, url.port, token)
        streams[s.fileno()] = {"socket": s, "buffer": b"", "ids": {}}
        poller.register(s.fileno(), select.EPOLLIN)
    watch = socket.socket(socket.AF_UNIX)
    watch.connect(path)
    watch.sendall(b"WATCH mail\n")
    watch.setblocking(False)
    watch_state = {"buffer": b"", "seqs": {}}
    poller.register(watch.fileno(), select.EPOLLIN)
    writer = socket.socket(socket.AF_UNIX)
    writer.connect(path)
    writer_file = writer.makefile("rb")

    def pump(until):
        """Reads what arrived until `until()` holds; each event's arrival time by id."""
        while not until():
            for fd, _ in poller.poll(5):
                now = time.perf_counter()
                if fd == watch.fileno():
                    data = watch.recv(65536)
                    watch_state["buffer"] += data
                    *lines, watch_state["buffer"] = watch_state["buffer"].split(b"\n")
                    for line in lines:
                        if line.startswith(b"EVENT mail "):
                            seq = int(line.split(b" seq=")[1].split(b" ")[0])
                            watch_state["seqs"].setdefault(seq, now)
                    continue
                stream = streams[fd]
                data = stream["socket"].recv(65536)
                if not data:
                    raise SystemExit(f"a stream ended: {stream['buffer'][-200:]!r}")
                stream["buffer"] += data
                *events, stream["buffer"] = stream["buffer"].split(b"\n\n")
                for event in events:
                    for line in event.split(b"\n"):
                        if line.startswith(b"id: "):
                            stream["ids"].setdefault(int(line[4:]), now)

    # Every client has its snapshot (an id) before the first change.
    pump(lambda: all(s["ids"] for s in streams.values()))
    latencies, watch_latencies = [], []
    for _ in range(changes):
        time.sleep(gap_ms / 1000)
        sent = time.perf_counter()
        writer.sendall(b"INCR mail\n")
        seq = None
        while True:
            line = writer_file.readline()
            if line.startswith(b"STATE mail "):
                seq = int(line.split(b" seq=")[1].split(b" ")[0])
            elif line.startswith(b"OK") or line.startswith(b"ERR"):
                break
        pump(lambda: seq in watch_state["seqs"] and all(seq in s["ids"] for s in streams.values()))
        latencies += [(s["ids"][seq] - sent) * 1e6 for s in streams.values()]
        watch_latencies.append((watch_state["seqs"][seq] - sent) * 1e6)
    print(json.dumps({
        "p50_us": round(percentile(latencies, 0.5)), "p99_us": round(percentile(latencies, 0.99)),
        "watch_p50_us": round(percentile(watch_latencies, 0.5)),
        "watch_p99_us": round(percentile(watch_latencies, 0.99)),
        "clients": clients, "changes": changes}))


if __name__ == "__main__":
    main()
