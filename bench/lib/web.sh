# Sourced by bench/run: scenario 14, badged-web. badged (`sync = never`) and badged-web on the
# servers' core; the measuring side (bench/lib/web.py: raw SSE clients and one protocol WATCH,
# read with epoll) on the generator's. Rows 14.x; how to read them: BENCHMARKS.md, "The web view".
# Uses: $bin, $work, $smoke, $socket, server_pin, generator_pin, record, field, start_badged,
# stop_server, rss_kb, cpu_ticks (servers.sh, results.sh).

if [ "$smoke" = 1 ]; then
  web_counts="1 10" web_changes=3 web_idle_seconds=1
else
  web_counts="1 100 1000" web_changes=${BENCH_WEB_CHANGES:-100} web_idle_seconds=10
fi
web_gap_ms=20
web_venv=${BADGED_WEB_VENV:-/opt/badged-test/web}
web_port=18787

web_scenarios() {
  local folder=$work/web line web_pid token clients row before
  mkdir -p "$folder"
  start_badged never
  printf '[web]\nlisten = 127.0.0.1:%s\ntokens_file = %s/tokens\nroot = %s/web\nmax_clients = 8192\n' \
    "$web_port" "$folder" "$PWD" > "$folder/badged.conf"
  token=$("$bin/badgectl" web token --name bench --config "$folder/badged.conf")
  # badged-web raises its own open files limit to the hard one, as web.py does.
  "${server_pin[@]}" "$bin/badged-web" --socket "$socket" --config "$folder/badged.conf" 2>> "$folder/badged-web.log" &
  web_pid=$!
  until curl -sf -o /dev/null -H "Authorization: Bearer $token" "http://127.0.0.1:$web_port/api/channels"; do
    sleep 0.05
  done
  # Memory and idle CPU first, on a fresh badged-web: 100 streams held open by a reader.
  before=$(rss_kb "$web_pid")
  /usr/bin/python3 - "$web_port" "$token" 100 "$web_idle_seconds" "$web_pid" > "$folder/idle.json" <<'PY'
import json, socket, sys, time
port, token, n, seconds, pid = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
def ticks():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])
def rss():
    return next(int(l.split()[1]) for l in open(f"/proc/{pid}/status") if l.startswith("VmRSS:"))
streams = []
for _ in range(n):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
    data = b""
    while b"event: snapshot" not in data:
        data += s.recv(65536)
    streams.append(s)
# The last streams' snapshots still go out as the reader gets the first ones: count from a
# second later, when badged-web has nothing left to do.
time.sleep(1)
start = ticks()
time.sleep(seconds)
print(json.dumps({"ticks": ticks() - start, "rss_kb": rss()}))
PY
  record 14.1 "badged-web idle for $web_idle_seconds s with 100 streams open: CPU ticks" badged \
    "$(field "$(cat "$folder/idle.json")" ticks)" ticks lower
  record 14.2 "… memory per open stream (RSS with 100 open − RSS with none, ÷ 100)" badged \
    "$(( ($(field "$(cat "$folder/idle.json")" rss_kb) - before) * 1024 / 100 ))" bytes lower
  row=3
  for clients in $web_counts; do
    line=$("${generator_pin[@]}" /usr/bin/python3 bench/lib/web.py "$socket" \
      "http://127.0.0.1:$web_port" "$token" "$clients" "$web_changes" "$web_gap_ms")
    record "14.$row" "an INCR → the SSE event at each of $clients clients, $web_changes changes: p50" badged \
      "$(field "$line" p50_us)" µs lower "$line"
    record "14.$((row + 1))" "… p99" badged "$(field "$line" p99_us)" µs lower
    record "14.$((row + 2))" "… the same INCR → a protocol WATCH's EVENT (what badgectl watch reads): p99" badged \
      "$(field "$line" watch_p99_us)" µs lower
    row=$((row + 3))
  done
  record "14.$row" "the page's files, uncompressed (web/, everything a first load fetches)" badged \
    "$(cat web/* | wc -c)" bytes lower
  # The page's first draw (navigation to the snapshot drawn) in headless Chromium, where the
  # test venv and chromium-driver are (scripts/install-deps --test).
  if [ -x "$web_venv/bin/python3" ] && [ -x /usr/bin/chromedriver ]; then
    line=$("$web_venv/bin/python3" Tests/EndToEndTests/Fixtures/web/browser.py "http://127.0.0.1:$web_port" drawn \
      --token "$token" | sed -n 's/^ready first_draw_ms=\([0-9.]*\).*/\1/p')
    record "14.$((row + 1))" "… its first draw in headless Chromium (navigation → snapshot drawn)" badged "$line" ms lower
  else
    echo "scenario 14: no $web_venv or chromedriver (scripts/install-deps --test): the first draw is not measured" >&2
  fi
  kill -TERM "$web_pid" 2>/dev/null || true
  wait "$web_pid" 2>/dev/null || true
  stop_server
}
