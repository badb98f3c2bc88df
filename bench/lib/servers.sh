# Sourced by bench/run: starting and stopping badged, Redis and the echo server, pinned to
# core 0 (the generator to core 1) where there are two cores, and reading their memory.
# Uses: $bin (the release binaries), $work (the run's temporary folder).

if [ "$(nproc)" -ge 2 ]; then
  server_pin=(taskset -c 0)
  generator_pin=(taskset -c 1)
else
  server_pin=()
  generator_pin=()
fi
server_pid=""
# A command that runs each server (bench/callgrind: valgrind), and how long start-up may take.
server_wrapper=()
start_seconds=10

# Waits until the server just started answers PING on socket $1 (its log $2 says why not).
wait_for_socket() {  # socket log
  "$bin/badged-bench" --socket "$1" --protocol "$protocol" --mode wait --timeout "$start_seconds" 2>/dev/null && return 0
  echo "the server did not answer within $start_seconds s: $(cat "$2")" >&2
  return 1
}

# badged with `sync = $1`, a fresh state folder unless $2 is "keep"; `badged_limits` (lines of
# a [limits] section) and `badged_arguments` (more arguments) when set.
start_badged() {  # sync [keep]
  [ "${2:-}" = keep ] || rm -rf "$work/state"
  rm -f "$work/badged.sock"
  printf '[daemon]\nsync = %s\n[limits]\n%b' "$1" "${badged_limits:-}" > "$work/badged.conf"
  "${server_pin[@]}" "${server_wrapper[@]}" "$bin/badged" --socket "$work/badged.sock" --state-dir "$work/state" \
    --config "$work/badged.conf" ${badged_arguments[@]+"${badged_arguments[@]}"} 2>>"$work/badged.log" &
  server_pid=$!
  socket="$work/badged.sock" protocol=badged
  wait_for_socket "$socket" "$work/badged.log"
}

# The Redis options of an AOF mode: `off` (no AOF: Redis writes nothing), `no` (every change
# appended, never flushed: `appendfsync no`), `everysec` or `always`.
redis_aof_options() {  # off|no|everysec|always
  case "$1" in
    off) echo "--appendonly no" ;;
    no | everysec | always) echo "--appendonly yes --appendfsync $1" ;;
  esac
}

# The AOF mode a scenario pairs with badged's `sync` when it has one pairing: `never` against
# AOF off, `everysec` and `always` against their namesakes. (The INCR matrix pairs `never`
# with `appendfsync no` as well: BENCHMARKS.md, "Pinning and alternation".)
redis_aof_for() {  # sync
  if [ "$1" = never ]; then echo off; else echo "$1"; fi
}

# The Redis options that match badged's `sync` (redis_aof_for), or `redis_aof`'s mode when set.
redis_durability() {  # sync
  redis_aof_options "${redis_aof:-$(redis_aof_for "$1")}"
}

# redis-server on a Unix socket only, in its own folder, no RDB snapshots; pub/sub clients
# are never dropped for a full output buffer (badged never drops a reading watcher either).
# Its AOF matches badged's `sync` (redis_durability; `redis_aof` overrides it).
start_redis() {  # sync [keep]
  [ "${2:-}" = keep ] || rm -rf "$work/redis"
  mkdir -p "$work/redis"
  rm -f "$work/redis.sock"
  # shellcheck disable=SC2046
  "${server_pin[@]}" "${server_wrapper[@]}" redis-server --port 0 --unixsocket "$work/redis.sock" --unixsocketperm 700 \
    --save '' --dir "$work/redis" $(redis_durability "$1") --client-output-buffer-limit 'pubsub 0 0 0' \
    --maxclients 4064 --logfile "$work/redis.log" &
  server_pid=$!
  socket="$work/redis.sock" protocol=redis
  wait_for_socket "$socket" "$work/redis.log"
}

start_server() {  # badged|redis sync [keep]
  "start_$1" "$2" "${3:-}"
}

stop_server() {
  [ -n "$server_pid" ] || return 0
  kill -TERM "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

# A crash, not a stop: badged then compacts nothing on the way out.
kill_server() {
  kill -KILL "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

# The resident memory of process $1 (the server by default), in KiB.
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/${1:-$server_pid}/status"; }

# CPU ticks (utime + stime) of process $1.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# The generator, pinned, against the running server.
generate() { "${generator_pin[@]}" "$bin/badged-bench" --socket "$socket" --protocol "$protocol" "$@"; }
