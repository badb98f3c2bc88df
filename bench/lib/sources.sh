# Sourced by bench/run: scenario 11, the counting sources. badged (`sync = never`) and
# badged-sources on the servers' core, the measuring side (bench/lib/sources.py: a watcher on
# badged's socket and the Maildir writes it times) on the generator's. Rows 11.x; how to read
# them: BENCHMARKS.md, "Counting sources".
# Uses: $bin, $work, $smoke, $socket, server_pin, generator_pin, record, field, start_badged,
# stop_server, rss_kb (servers.sh, results.sh).

sources_folder=$work/sources
sources_pid=""

if [ "$smoke" = 1 ]; then
  sources_messages=20 sources_recount=2000 sources_burst=500 sources_idle_seconds=2
else
  sources_messages=${BENCH_SOURCES_MESSAGES:-1000} sources_recount=100000 sources_burst=10000 sources_idle_seconds=60
fi
# Between two timed changes: more than a channel's coalesce_ms (50 ms by default), so each change
# is written at once rather than waiting for the interval (a burst is measured on its own).
sources_gap_ms=60

sources_measure() { "${generator_pin[@]}" /usr/bin/python3 bench/lib/sources.py "$@"; }

# A Maildir's three folders.
sources_maildir() { mkdir -p "$1/cur" "$1/new" "$1/tmp"; }

# badged-sources on config $1, pinned with the servers, its log beside the configs.
sources_start() {  # config
  "${server_pin[@]}" "$bin/badged-sources" --socket "$socket" --config "$1" 2>>"$sources_folder/badged-sources.log" &
  sources_pid=$!
}

sources_stop() {
  [ -n "$sources_pid" ] || return 0
  kill -TERM "$sources_pid" 2>/dev/null || true
  # The recount's program was started by the measuring side: not this shell's child.
  wait "$sources_pid" 2>/dev/null || while kill -0 "$sources_pid" 2>/dev/null; do sleep 0.05; done
  sources_pid=""
}

# The times a process's threads were put on a CPU (the second figure of each thread's
# /proc/PID/task/TID/schedstat is time waited, the third the count of timeslices run): how
# often it woke up.
sources_wakeups() {  # pid
  cat /proc/"$1"/task/*/schedstat | awk '{ n += $3 } END { print n }'
}

# A Maildir $sources_folder/$1 holding one message, and badged-sources counting it as the
# source (and channel) $1; returns once the channel shows it.
sources_one_maildir() {  # name
  sources_maildir "$sources_folder/$1"
  sources_measure fill "$sources_folder/$1" 1 >/dev/null
  printf '[source.%s]\nkind = maildir\npath = %s\n' "$1" "$sources_folder/$1" > "$sources_folder/$1.conf"
  sources_start "$sources_folder/$1.conf"
  sources_measure wait "$socket" 1 "$1" >/dev/null
}

# A Maildir source's latency one change at a time: a delivery into new/ and a flag rename in
# cur/, each timed to the watcher's event.
sources_latency() {
  local line
  sources_one_maildir mail
  line=$(sources_measure latency "$socket" mail "$sources_folder/mail" "$sources_messages" "$sources_gap_ms")
  record 11.1 "a delivery (rename into new/) → the watcher's EVENT, one at a time, $sources_messages: p50" badged \
    "$(field "$line" deliver_p50_us)" µs lower "$line"
  record 11.2 "… p99 (target: under 5 ms)" badged "$(field "$line" deliver_p99_us)" µs lower
  record 11.3 "a flag rename in cur/ (:2, → :2,S) → the count one lower on the watcher: p50" badged \
    "$(field "$line" read_p50_us)" µs lower
  record 11.4 "… p99" badged "$(field "$line" read_p99_us)" µs lower
  sources_stop
}

# A recount from the start of badged-sources of a Maildir of $sources_recount messages.
sources_recount() {
  local maildir=$sources_folder/large line unread
  sources_maildir "$maildir"
  unread=$(field "$(sources_measure fill "$maildir" "$sources_recount")" unread)
  printf '[source.large]\nkind = maildir\npath = %s\n' "$maildir" > "$sources_folder/large.conf"
  line=$(sources_measure recount "$socket" large "$unread" "$sources_folder/badged-sources.log" -- \
    "${server_pin[@]}" "$bin/badged-sources" \
    --socket "$socket" --config "$sources_folder/large.conf")
  sources_pid=$(field "$line" pid)
  record 11.5 "recount of a Maildir of $sources_recount messages: from the start of badged-sources to the count" \
    badged "$(field "$line" seconds)" s lower "$line"
  record 11.6 "… peak RSS of badged-sources (VmHWM)" badged "$(field "$line" hwm_kb)" KiB lower
  sources_stop
  rm -rf "$maildir"
}

# Five sources (three Maildirs, two folders of files) with nothing changing.
sources_idle() {
  local config=$sources_folder/idle.conf i before after pid channels=()
  : > "$config"
  for i in 1 2 3; do
    sources_maildir "$sources_folder/idle$i"
    sources_measure fill "$sources_folder/idle$i" 3 >/dev/null  # 1 in new/, 2 unread in cur/ of 3
    printf '[source.mail%s]\nkind = maildir\npath = %s\n\n' "$i" "$sources_folder/idle$i" >> "$config"
    channels+=("mail$i")
  done
  for i in 1 2; do
    mkdir -p "$sources_folder/queue$i"
    touch "$sources_folder/queue$i/a" "$sources_folder/queue$i/b"
    printf '[source.queue%s]\nkind = files\npath = %s\n\n' "$i" "$sources_folder/queue$i" >> "$config"
  done
  sources_start "$config"
  pid=$sources_pid
  sources_measure wait "$socket" 2 "${channels[@]}" queue1 queue2 >/dev/null
  sleep 1  # the writes' replies are in
  before=$(sources_wakeups "$pid")
  local ticks_before; ticks_before=$(cpu_ticks "$pid")
  sleep "$sources_idle_seconds"
  after=$(sources_wakeups "$pid")
  record 11.7 "5 sources idle (3 Maildirs, 2 folders of files): wakeups of badged-sources per minute" badged \
    "$(awk -v n="$((after - before))" -v s="$sources_idle_seconds" 'BEGIN { print n * 60 / s }')" /min lower \
    "{\"seconds\":$sources_idle_seconds,\"timeslices\":$((after - before)),\"ticks\":$(( $(cpu_ticks "$pid") - ticks_before ))}"
  record 11.8 "… RSS of badged-sources" badged "$(rss_kb "$pid")" KiB lower
  sources_stop
}

# $sources_burst messages moved into new/ at once.
sources_burst() {
  local maildir=$sources_folder/burst line
  sources_one_maildir burst
  line=$(sources_measure burst "$socket" burst "$maildir" "$sources_burst")
  record 11.9 "a burst of $sources_burst messages moved into new/ (one mv): until the count is exact" badged \
    "$(field "$line" seconds)" s lower "$line"
  record 11.10 "… the channel's events the watcher saw on the way" badged "$(field "$line" events)" events lower
  sources_stop
  rm -rf "$maildir" "$maildir.staging"
}

sources_scenarios() {
  rm -rf "$sources_folder"
  mkdir -p "$sources_folder"
  start_badged never
  sources_latency
  sources_recount
  sources_idle
  sources_burst
  stop_server
}
