# Sourced by bench/run: scenario 10, channels shared between two machines through a local
# mosquitto (plain MQTT on 127.0.0.1, a port of its own, no persistence), each machine a badged
# (`sync = never`) with its badged-mqtt: `desktop` shares `bench*`, `laptop` mirrors them. The
# broker, the daemons and the bridges run on the servers' core, the generator (and the
# mosquitto clients it drives) on its own. Rows 10.x; how to read them: BENCHMARKS.md.
# Uses: $bin, $work, $smoke, server_pin, generator_pin, record, field, cpu_ticks, rss_kb (servers.sh).

mesh=$work/mesh
mesh_pids=()  # the broker, the daemons and the bridges, stopped in reverse order
declare -A mesh_pid

# Starts process $1 of the mesh (a name for its pid and log) with the rest as its command.
mesh_start() {  # name command...
  local name=$1
  shift
  "${server_pin[@]}" "$@" 2>>"$mesh/$name.log" &
  mesh_pid[$name]=$!
  mesh_pids+=("$!")
}

mesh_stop() {
  local i
  for ((i = ${#mesh_pids[@]} - 1; i >= 0; i--)); do kill -TERM "${mesh_pids[i]}" 2>/dev/null || true; done
  for i in "${mesh_pids[@]}"; do wait "$i" 2>/dev/null || true; done
  mesh_pids=()
}

# mosquitto on a free port of 127.0.0.1 (another if one is taken), anonymous, no persistence.
mesh_broker() {
  local attempt _
  for attempt in 1 2 3 4 5; do
    mesh_port=$((20000 + RANDOM % 40000))
    printf '%s\n' "user $(id -un)" "allow_anonymous true" "persistence false" "set_tcp_nodelay true" "listener $mesh_port 127.0.0.1" \
      > "$mesh/mosquitto.conf"
    mesh_start broker /usr/sbin/mosquitto -c "$mesh/mosquitto.conf"
    for _ in $(seq 100); do
      kill -0 "${mesh_pid[broker]}" 2>/dev/null || break
      mosquitto_pub -h 127.0.0.1 -p "$mesh_port" -t bench/ping -m 1 2>/dev/null && return 0
      sleep 0.05
    done
    kill "${mesh_pid[broker]}" 2>/dev/null || true
    wait "${mesh_pid[broker]}" 2>/dev/null || true
  done
  echo "mosquitto did not start: $(cat "$mesh/broker.log")" >&2
  return 1
}

# A machine: badged on its own socket and state folder, and its bridge. $2: the [mqtt] lines
# that make it the owner or the mirror.
mesh_machine() {  # host mqtt-lines
  local host=$1
  printf '[daemon]\nsync = never\n\n[mqtt]\nbroker = mqtt://127.0.0.1:%s\nhost = %s\nprefix = badged/bench\n%b' \
    "$mesh_port" "$host" "$2" > "$mesh/$host.conf"
  mesh_start "$host" "$bin/badged" --socket "$mesh/$host.sock" --state-dir "$mesh/$host.state" --config "$mesh/$host.conf"
  protocol=badged wait_for_socket "$mesh/$host.sock" "$mesh/$host.log"
  mesh_bridge "$host"
}

mesh_bridge() {  # host
  mesh_start "$1-mqtt" "$bin/badged-mqtt" --socket "$mesh/$1.sock" --config "$mesh/$1.conf"
  local _
  for _ in $(seq 200); do
    "$bin/badgectl" --socket "$mesh/$1.sock" mqtt 2>/dev/null | grep -q ', connected to ' && return 0
    sleep 0.05
  done
  echo "$1's bridge did not connect: $(cat "$mesh/$1-mqtt.log")" >&2
  return 1
}

# The generator against the owner (desktop) or the mirror (laptop).
mesh_generate() { "${generator_pin[@]}" "$bin/badged-bench" "$@"; }

# The `seconds` of a converge run, in milliseconds.
mesh_ms() { jq '.seconds * 1000 | round' <<< "$1"; }

mesh_rss() { rss_kb "${mesh_pid[$1]}"; }

mesh_scenarios() {
  local changes=1000 gap_ms=50 back_to_back=100 forwards=10000 channels=1000 idle_seconds=10 rate=10000 rate_seconds=5
  if [ "$smoke" = 1 ]; then
    changes=20 back_to_back=10 forwards=200 channels=50 idle_seconds=1 rate=2000 rate_seconds=1
  fi
  changes=${BENCH_MESH_CHANGES:-$changes} channels=${BENCH_MESH_CHANNELS:-$channels}
  mkdir -p "$mesh"
  mesh_broker
  mesh_machine desktop 'share = bench*\n'
  mesh_machine laptop 'mirror = *\n'
  local owner=$mesh/desktop.sock mirror=$mesh/laptop.sock line

  record 10.10 "badged-mqtt RSS idle, connected, no channel shared yet: the owner's" badged "$(mesh_rss desktop-mqtt)" KiB lower
  record 10.10.1 "… the mirror's" badged "$(mesh_rss laptop-mqtt)" KiB lower

  # The channel exists on the owner and is mirrored before anything is timed.
  "$bin/badgectl" --socket "$owner" incr bench >/dev/null
  mesh_generate --socket "$mirror" --owner-socket "$owner" --mode converge --timeout 30 >/dev/null

  # 1: one change at a time, each once the one before has arrived and a pause has passed.
  line=$(mesh_generate --socket "$owner" --watch-socket "$mirror" --mode fanout --watchers 1 --changes "$changes" --gap-ms "$gap_ms")
  local p50 p99 floor
  p50=$(field "$line" p50_us) p99=$(field "$line" p99_us)
  record 10.1 "INCR on the owner → EVENT of a watcher on the mirror, one at a time $gap_ms ms apart: p50" badged "$p50" µs lower "$line"
  record 10.2 "… p99 (target: under 5 ms)" badged "$p99" µs lower
  floor=$(mesh_generate --mode mqtt-floor --mqtt-port "$mesh_port" --changes "$changes" --gap-ms "$gap_ms")
  record 10.1 "INCR on the owner → EVENT of a watcher on the mirror, one at a time $gap_ms ms apart: p50" mosquitto "$(field "$floor" p50_us)" µs lower "$floor"
  record 10.2 "… p99 (target: under 5 ms)" mosquitto "$(field "$floor" p99_us)" µs lower
  record 10.3 "… p50 over the floor (mosquitto_pub → mosquitto_sub) (target: within 2)" badged \
    "$(jq -n "$p50 / $(field "$floor" p50_us) * 100 | round / 100")" × lower
  record 10.4 "… p99 over the floor (target: within 2)" badged "$(jq -n "$p99 / $(field "$floor" p99_us) * 100 | round / 100")" × lower
  line=$(mesh_generate --socket "$owner" --watch-socket "$mirror" --mode fanout --watchers 1 --changes "$back_to_back")
  record 10.5 "… back to back (each change within 50 ms of the state published before it): p50" badged "$(field "$line" p50_us)" µs lower "$line"

  # 2: writes taken by the mirror, forwarded, until the owner has applied every one.
  line=$(mesh_generate --socket "$mirror" --owner-socket "$owner" --clients 1 --pipeline 100 --requests "$forwards" --timeout 600)
  record 10.6 "forwarded writes: $forwards INCRs on the mirror until all are applied on the owner" badged "$(field "$line" applied_per_sec)" writes/s higher "$line"

  # 5: the owner taking $rate INCR/s: the state publishes of the channel that reach the broker,
  # and the mirror at exactly the owner's count after the last.
  local topic=badged/bench/host/desktop/ch/bench/state sub
  "${generator_pin[@]}" mosquitto_sub -h 127.0.0.1 -p "$mesh_port" -t "$topic" -q 1 -F '%r %U' > "$mesh/publishes" &
  sub=$!
  until [ -s "$mesh/publishes" ]; do sleep 0.02; done  # the retained state: subscribed
  line=$(mesh_generate --socket "$owner" --clients 1 --pipeline 10 --rate "$rate" --requests "$((rate * rate_seconds))")
  local converged
  converged=$(mesh_generate --socket "$mirror" --owner-socket "$owner" --mode converge --timeout 30)
  sleep 0.2  # a publish still under way reaches the subscriber
  kill "$sub"; wait "$sub" 2>/dev/null || true
  # Fresh (not retained) publishes, as the subscriber received them: how many, over how long,
  # and the most in any second (a subscriber that falls behind reads several at once, so the
  # gaps between two say little).
  local publishes
  publishes=$(awk '$1 == 0 { t[n++] = $2 }
    END { for (i = j = 0; j < n; j++) { while (t[j] - t[i] >= 1) i++; if (j - i + 1 > most) most = j - i + 1 }
      printf "{\"publishes\":%d,\"span_seconds\":%.3f,\"most_in_a_second\":%d}", n, n ? t[n - 1] - t[0] : 0, most }' \
    "$mesh/publishes")
  record 10.7 "owner taking $rate INCR/s for $rate_seconds s: state publishes of the channel per second" badged \
    "$(jq -n --argjson p "$publishes" '($p.publishes - 1) / ($p.span_seconds | if . > 0 then . else 1 end) * 10 | round / 10')" \
    publishes/s lower "$(jq -c --argjson p "$publishes" --argjson c "$converged" '. + {states: $p, converge: $c}' <<< "$line")"
  record 10.8 "… the most in any second, as a subscriber received them (bound: 20, one per 50 ms)" badged \
    "$(jq -n --argjson p "$publishes" '$p.most_in_a_second')" publishes lower
  record 10.9 "… the mirror at exactly the owner's count, after the last INCR's answer" badged "$(mesh_ms "$converged")" ms lower

  # 3 and 4: $channels shared channels, mirrored, the bridges' memory
  # and idle CPU, then a cut, a change of every channel on the owner, the heal.
  line=$(mesh_generate --socket "$owner" --clients 1 --pipeline 100 --channels "$channels" --requests "$channels")
  line=$(mesh_generate --socket "$mirror" --owner-socket "$owner" --mode converge --channels "$channels" --timeout 60)
  record 10.11 "badged-mqtt RSS with $channels channels shared: the owner's" badged "$(mesh_rss desktop-mqtt)" KiB lower
  record 10.11.1 "… the mirror's" badged "$(mesh_rss laptop-mqtt)" KiB lower
  # Each INCR started a pulse (3 s by default), and its end is a change the owner publishes:
  # nothing changes only once the last has ended.
  sleep 4
  local name before=()
  for name in desktop-mqtt laptop-mqtt; do before+=("$(cpu_ticks "${mesh_pid[$name]}")"); done
  sleep "$idle_seconds"
  record 10.12 "badged-mqtt CPU ticks in $idle_seconds s with nothing changing (target: 0): the owner's" badged \
    "$(( $(cpu_ticks "${mesh_pid[desktop-mqtt]}") - before[0] ))" ticks lower
  record 10.12.1 "… the mirror's" badged "$(( $(cpu_ticks "${mesh_pid[laptop-mqtt]}") - before[1] ))" ticks lower

  # The cut: the mirror's bridge stopped (SIGSTOP) while the owner changes every channel; the
  # broker keeps sending it the new states, which wait in its socket. The heal: SIGCONT.
  kill -STOP "${mesh_pid[laptop-mqtt]}"
  mesh_generate --socket "$owner" --clients 1 --pipeline 100 --channels "$channels" --requests "$channels" >/dev/null
  line=$(mesh_generate --socket "$mirror" --owner-socket "$owner" --mode converge --channels "$channels" --timeout 60 \
    -- kill -CONT "${mesh_pid[laptop-mqtt]}")
  record 10.13 "$channels channels changed while the mirror was cut off: from the heal to all at the owner's counts (target: under 1 s)" \
    badged "$(mesh_ms "$line")" ms lower "$line"
  # The same through a new connection: the mirror's bridge stopped, every channel changed, the
  # bridge started again: it connects and takes the $channels retained states.
  kill -TERM "${mesh_pid[laptop-mqtt]}"; wait "${mesh_pid[laptop-mqtt]}" 2>/dev/null || true
  mesh_generate --socket "$owner" --clients 1 --pipeline 100 --channels "$channels" --requests "$channels" >/dev/null
  line=$(mesh_generate --socket "$mirror" --owner-socket "$owner" --mode converge --channels "$channels" --timeout 60 \
    -- sh -c "exec ${server_pin[*]} $bin/badged-mqtt --socket $mirror --config $mesh/laptop.conf 2>>$mesh/laptop-mqtt.log & echo \$! > $mesh/laptop-mqtt.pid")
  mesh_pid[laptop-mqtt]=$(cat "$mesh/laptop-mqtt.pid")
  mesh_pids+=("${mesh_pid[laptop-mqtt]}")
  record 10.14 "… the mirror's bridge started again instead: from its start to all at the owner's counts" badged "$(mesh_ms "$line")" ms lower "$line"
  mesh_stop
}
