#!/usr/bin/python3
"""Hostile HTTP against a running badged-web, each attack followed by a well-behaved client
that must still be served (GET /api/channels/mail with the token, 200 and the count it has).

Usage: hostile.py <base URL> <token> <pid of badged-web> <attack> [<badged socket>]
Attacks: idle (10,000 connections that send nothing), slowloris (500 connections sending a
header byte every second for 5 s), body (a 100 MB POST), headers (malformed and oversized
request lines and headers), readers (1,000 event streams that never read, while 5,000 INCRs of mail are sent to
badged at the socket given, each answered before the next is sent).
Prints one line per fact: `served <status> <count>`, `rss_kb <before> <during> <after>`,
`answered <status>` for attacks that get an answer, `refused <n>` for connections refused.
"""
import resource
import socket
import sys
import time
import urllib.parse


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def served(host, port, token):
    """A well-behaved client's request: its status and the count in the answer."""
    s = socket.create_connection((host, port), timeout=10)
    s.sendall((f"GET /api/channels/mail HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
               "Connection: close\r\n\r\n").encode())
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1]) if head else 0
    count = body.split(b'"count":')[1].split(b",")[0].decode() if b'"count":' in body else "-"
    return f"served {status} {count}"


def status_of(s):
    data = b""
    s.settimeout(10)
    try:
        while b"\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    except (ConnectionResetError, socket.timeout):
        return 0
    return int(data.split(b" ")[1]) if data.startswith(b"HTTP/") else 0


def main():
    base, token, pid, attack = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    url = urllib.parse.urlsplit(base)
    host, port = url.hostname, url.port
    resource.setrlimit(resource.RLIMIT_NOFILE, (20000, 20000))
    before = rss_kb(pid)
    held, refused = [], 0
    if attack == "idle":
        for _ in range(10000):
            try:
                held.append(socket.create_connection((host, port), timeout=5))
            except OSError:
                refused += 1
        print(served(host, port, token))
    elif attack == "slowloris":
        for _ in range(500):
            s = socket.create_connection((host, port))
            s.sendall(b"GET /api/channels/mail HTTP/1.1\r\nHost: x\r\n")
            held.append(s)
        for second in range(5):
            for s in held:
                try:
                    s.sendall(b"X-a: b\r\n")
                except OSError:
                    pass
            time.sleep(1)
        print(served(host, port, token))
    elif attack == "body":
        s = socket.create_connection((host, port))
        s.sendall((f"POST /api/channels/mail/incr HTTP/1.1\r\nHost: {host}:{port}\r\n"
                   f"Authorization: Bearer {token}\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                   "Content-Length: 104857600\r\n\r\n").encode())
        sent = 0
        chunk = b"n=1&" * 16384
        try:
            while sent < 104857600:
                s.sendall(chunk)
                sent += len(chunk)
        except OSError:
            pass
        print(f"answered {status_of(s)} after {sent // 1048576} MB")
        print(served(host, port, token))
    elif attack == "headers":
        for request in (b"GARBAGE\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n", b"GET /" + b"a" * 100000 + b" HTTP/1.1\r\n\r\n",
                        b"GET / HTTP/1.1\r\nHost: x\r\nX: " + b"b" * 100000 + b"\r\n\r\n",
                        b"GET / HTTP/1.1\r\n" + b"X: y\r\n" * 5000 + b"\r\n",
                        b"GET /api/channels HTTP/1.1\r\nHost\r\n\r\n"):
            s = socket.create_connection((host, port))
            try:
                s.sendall(request)
            except OSError:
                pass
            print(f"answered {status_of(s)}")
            s.close()
        print(served(host, port, token))
    elif attack == "readers":
        # Each stream's socket keeps a small receive buffer, so the server's sends back up soon.
        for _ in range(1000):
            s = socket.create_connection((host, port))
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.sendall((f"GET /events HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n\r\n").encode())
            held.append(s)
        expected = None
        if len(sys.argv) > 5:
            writer = socket.socket(socket.AF_UNIX)
            writer.connect(sys.argv[5])
            replies = writer.makefile("rb")
            for _ in range(5000):
                writer.sendall(b"INCR mail\n")
                while True:
                    reply = replies.readline()
                    if reply.startswith(b"STATE mail "):
                        expected = reply.split(b" count=")[1].split(b" ")[0].decode()
                    if reply.startswith((b"OK", b"ERR")):
                        break
            writer.close()
        # badged-web has taken every change once the served count is the last INCR's.
        for _ in range(500):
            line = served(host, port, token)
            if expected is None or line.endswith(" " + expected):
                break
            time.sleep(0.01)
        print(line)
    during = rss_kb(pid)
    for s in held:
        s.close()
    print(f"refused {refused}")
    print(f"rss_kb {before} {during} {rss_kb(pid)}")


if __name__ == "__main__":
    main()
