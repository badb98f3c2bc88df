# Sourced by bench/run: scenario 13, the tray. badged (`sync = never`) and badged-tray (at the
# debug level, which logs what each frame cost to draw) on the servers' core, a private
# dbus-daemon, and the measuring side (bench/lib/tray.py: a StatusNotifierWatcher of its own,
# reading IconPixmap after each NewIcon as a host does) on the generator's. Rows 13.x; how to
# read them: BENCHMARKS.md, "The tray".
# Uses: $bin, $work, $smoke, $socket, server_pin, generator_pin, record, field, start_badged,
# stop_server, rss_kb, cpu_ticks (servers.sh, results.sh).

if [ "$smoke" = 1 ]; then tray_changes=3 tray_idle_seconds=1; else tray_changes=${BENCH_TRAY_CHANGES:-100} tray_idle_seconds=10; fi
# Between two INCRs: more than a bounce takes to settle, so each change's frames are its own.
tray_gap_ms=1000

tray_scenarios() {
  local folder=$work/tray line bus_pid tray_pid ticks costs
  mkdir -p "$folder"
  # A round's own bus: the last round's address file would say it is up before it is.
  rm -f "$folder/bus" "$folder/bus.addr"
  start_badged never
  dbus-daemon --session --address="unix:path=$folder/bus" --nofork --print-address > "$folder/bus.addr" 2>/dev/null &
  bus_pid=$!
  until [ -s "$folder/bus.addr" ]; do sleep 0.05; done
  printf '[tray]\nitems = mail\nreduce_motion = no\n' > "$folder/badged.conf"
  DBUS_SESSION_BUS_ADDRESS="unix:path=$folder/bus" "${server_pin[@]}" "$bin/badged-tray" --socket "$socket" \
    --config "$folder/badged.conf" --log-level debug 2>> "$folder/badged-tray.log" &
  tray_pid=$!
  line=$(DBUS_SESSION_BUS_ADDRESS="unix:path=$folder/bus" "${generator_pin[@]}" /usr/bin/python3 bench/lib/tray.py \
    "$socket" "$tray_changes" "$tray_gap_ms")
  record 13.1 "an INCR → the tray item's NewIcon, one every $tray_gap_ms ms, $tray_changes: p50" badged \
    "$(field "$line" p50_us)" µs lower "$line"
  record 13.2 "… p99" badged "$(field "$line" p99_us)" µs lower
  record 13.3 "frames of one bounce (NewIcon signals, 30 a second at most)" badged "$(field "$line" frames)" frames lower
  record 13.4 "… bytes a host reads for them (IconPixmap, 9 sizes a frame)" badged "$(field "$line" bytes)" bytes lower
  costs=$(grep -o 'drawn in [0-9]* µs' "$folder/badged-tray.log" | grep -o '[0-9][0-9]*' | sort -n)
  record 13.5 "one frame drawn at every size (cairo + pango, 9 sizes): median" badged \
    "$(awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }' <<< "$costs")" µs lower
  ticks=$(cpu_ticks "$tray_pid")
  sleep "$tray_idle_seconds"
  record 13.6 "badged-tray idle for $tray_idle_seconds s: CPU ticks" badged "$(( $(cpu_ticks "$tray_pid") - ticks ))" ticks lower
  record 13.7 "… its RSS" badged "$(rss_kb "$tray_pid")" KiB lower
  kill -TERM "$tray_pid" "$bus_pid" 2>/dev/null || true
  wait "$tray_pid" "$bus_pid" 2>/dev/null || true
  stop_server
}
