# Sourced by bench/run: scenario 12, the IMAP source. Debian's dovecot of the run's own (TLS from
# a CA made here, LMTP on a Unix socket, users bench and acct1..10), a raw IDLE client on it as
# the floor (bench/imap-floor), and badged-sources with a `kind = imap` source per account. The
# measuring side (bench/lib/imap.py) delivers through LMTP and sets \Seen from a session of its
# own, each timed to the floor's push and to the watcher's EVENT; then dovecot restarted, the
# link to badged-sources cut and healed (badged-sources in a network namespace of its own, on a
# veth pair to dovecot), and 10 accounts idle. Rows 12.x; how to read them: BENCHMARKS.md, "The
# IMAP source". Needs root (dovecot writes the mail as nobody; the namespace).
# Uses: $bin, $work, $smoke, $socket, server_pin, generator_pin, record, field, start_badged,
# stop_server, rss_kb, cpu_ticks (servers.sh, results.sh); sources_start, sources_stop,
# sources_pid (sources.sh).

# dovecot's folder: beside $work, not in it ($work is 0700, and dovecot's auth process, which is
# not root, must reach the passwd-file); made by imap_prepare, removed by imap_stop.
imap_folder=""
imap_port=""
imap_master=""
if [ "$smoke" = 1 ]; then imap_messages=10 imap_idle_seconds=2 imap_restarts=1 imap_cut_seconds=1 imap_cuts=1; else
  imap_messages=${BENCH_IMAP_MESSAGES:-500} imap_idle_seconds=10 imap_restarts=5 imap_cut_seconds=5 imap_cuts=3
fi
# The link cut in 12.15: badged-sources in the namespace $imap_namespace, on its end (eth0,
# $imap_link_near_host) of a veth pair; dovecot listens on the host's end, $imap_link_far
# ($imap_link_host), as well as on loopback. Empty when `ip netns` is not to be had: no 12.15.
imap_namespace="" imap_link_far="" imap_link_host=10.29.12.1 imap_link_near_host=10.29.12.2
imap_accounts=10
# Whether badged-sources counted the IMAP source in 12.5 (the rows after it need it).
imap_counted=no

imap_measure() { "${generator_pin[@]}" /usr/bin/python3 bench/lib/imap.py "$@"; }

# A CA and a certificate for localhost, 127.0.0.1 and the veth's host end, the passwd-file, the
# veth pair, and dovecot's config (the tests' own, Tests/EndToEndTests/Fixtures/dovecot.conf).
imap_prepare() {
  imap_folder=$(mktemp -d /tmp/badged-imap.XXXXXX)
  local d=$imap_folder i
  mkdir -p "$d/pki" "$d/run" "$d/state" "$d/mail"
  chmod 711 "$d"; chown 65534:65534 "$d/mail"
  local curve=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
  openssl req -x509 "${curve[@]}" -days 2 -subj /CN=bench-ca -keyout "$d/pki/ca.key" -out "$d/pki/ca.pem" 2>/dev/null
  openssl req "${curve[@]}" -subj /CN=localhost -keyout "$d/pki/srv.key" -out "$d/pki/srv.csr" 2>/dev/null
  printf 'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:%s\n' "$imap_link_host" > "$d/pki/ext"
  openssl x509 -req -in "$d/pki/srv.csr" -CA "$d/pki/ca.pem" -CAkey "$d/pki/ca.key" -CAcreateserial -days 2 \
    -extfile "$d/pki/ext" -out "$d/pki/srv.pem" 2>/dev/null
  chmod 644 "$d"/pki/*
  : > "$d/passwd"
  for i in bench $(seq -f 'acct%g' "$imap_accounts"); do printf '%s:{PLAIN}%s-secret::::::\n' "$i" "$i" >> "$d/passwd"; done
  imap_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  local listen=127.0.0.1
  imap_link_up && listen="127.0.0.1, $imap_link_host"
  sed -e "s|@BASE@|$d|g" -e "s|@LISTEN@|$listen|" -e "s|@PORT@|$imap_port|" -e "s|@MECHANISMS@|plain login|" \
    Tests/EndToEndTests/Fixtures/dovecot.conf > "$d/dovecot.conf"
}

# The namespace and the veth pair of 12.15 (before dovecot starts, which listens on the host's
# end); false, and nothing made, when they cannot be.
imap_link_up() {
  local name=bimap$$
  command -v ip >/dev/null && ip netns add "$name" 2>/dev/null || return 1
  imap_namespace=$name imap_link_far=$name.h
  if ! { ip link add "$imap_link_far" type veth peer name eth0 netns "$name" &&
    ip addr add "$imap_link_host/30" dev "$imap_link_far" && ip link set "$imap_link_far" up &&
    ip -n "$name" addr add "$imap_link_near_host/30" dev eth0 && ip -n "$name" link set eth0 up &&
    ip -n "$name" link set lo up; } 2>/dev/null; then
    echo "could not make the veth pair of 12.15: no cut link measured" >&2
    imap_link_down
    return 1
  fi
}

imap_link_down() {
  [ -n "$imap_namespace" ] || return 0
  ip link del "$imap_link_far" 2>/dev/null || true
  ip netns del "$imap_namespace" 2>/dev/null || true
  imap_namespace="" imap_link_far=""
}

# dovecot in a session of its own (its processes one group), pinned with the servers; returns
# once its LMTP socket and IMAPS port answer.
imap_dovecot_start() {
  rm -f "$imap_folder/run/lmtp"
  setsid "${server_pin[@]}" /usr/sbin/dovecot -F -c "$imap_folder/dovecot.conf" &
  imap_master=$!
  local _
  for _ in $(seq 100); do
    [ -S "$imap_folder/run/lmtp" ] && python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])))' \
      "$imap_port" 2>/dev/null && return 0
    sleep 0.05
  done
  echo "dovecot did not start: $(cat "$imap_folder/dovecot.log" 2>/dev/null)" >&2
  return 1
}

# Every process of dovecot's group at once, as systemd stops it.
imap_dovecot_stop() {
  [ -n "$imap_master" ] || return 0
  kill -TERM -- "-$imap_master" 2>/dev/null || true
  wait "$imap_master" 2>/dev/null || true
  while pgrep -g "$imap_master" >/dev/null; do sleep 0.02; done
  imap_master=""
}

# `[source.<account>] kind = imap` for each account, per the IMAP source's keys, on dovecot's
# loopback address (IMAP_HOST: another of its addresses).
imap_config() {  # config account...
  local config=$1 account; shift
  : > "$config"
  for account in "$@"; do
    printf '%s-secret\n' "$account" > "$imap_folder/$account.password"; chmod 600 "$imap_folder/$account.password"
    printf '[source.%s]\nkind = imap\nserver = imaps://%s:%s\nusername = %s\npassword_file = %s\nca_file = %s\n\n' \
      "$account" "${IMAP_HOST:-127.0.0.1}" "$imap_port" "$account" "$imap_folder/$account.password" \
      "$imap_folder/pki/ca.pem" >> "$config"
  done
}

# The unseen messages of the bench account's INBOX, as dovecot counts them.
imap_unseen() { doveadm -c "$imap_folder/dovecot.conf" mailbox status -u bench unseen INBOX | sed 's/.*unseen=//'; }

# One message into the bench account's INBOX by dovecot's LDA (dovecot running: its auth
# process looks the user up).
imap_deliver() {  # subject
  printf 'Subject: %s\r\n\r\nx\r\n' "$1" |
    /usr/lib/dovecot/dovecot-lda -c "$imap_folder/dovecot.conf" -d bench -f bench@example.org
}

# One message written into the bench account's Maildir (new/) while dovecot is stopped, as a
# delivery agent of its own would, owned by the user dovecot writes mail as.
imap_deliver_down() {  # name
  local inbox=$imap_folder/mail/bench
  printf 'Subject: %s\n\nx\n' "$1" > "$inbox/tmp/$1.bench"
  chown 65534:65534 "$inbox/tmp/$1.bench"
  mv "$inbox/tmp/$1.bench" "$inbox/new/$1.bench"
}

# A watcher of channel bench on file descriptor $imap_until (imap.py until), once it watches.
imap_until_start() {  # count
  exec {imap_until}< <(imap_measure until "$socket" bench "$1")
  local ready; read -r -u "$imap_until" ready
  [ "$ready" = ready ]
}

# The wall clock (ns) at which the watcher of imap_until_start saw its count.
imap_until_stamp() { local stamp; read -r -u "$imap_until" stamp; exec {imap_until}<&-; echo "$stamp"; }

# 12.1–12.8: delivery and \Seen, one at a time, to the floor and (once badged-sources has an IMAP
# source) to the watcher. The floor's rows are recorded whatever happens to the program's.
imap_latency() {
  local line
  imap_config "$imap_folder/bench.conf" bench
  sources_start "$imap_folder/bench.conf"
  sleep 0.5  # a config it refuses ends it at once
  if kill -0 "$sources_pid" 2>/dev/null && sources_measure wait "$socket" 0 bench >/dev/null 2>&1; then
    imap_counted=yes
    line=$(imap_measure push "$imap_folder/run/lmtp" 127.0.0.1 "$imap_port" bench bench-secret \
      "$imap_folder/pki/ca.pem" "$imap_messages" "$socket" bench)
  else
    echo "badged-sources did not count the IMAP source (see $sources_folder/badged-sources.log): the floor alone" >&2
    line=$(imap_measure push "$imap_folder/run/lmtp" 127.0.0.1 "$imap_port" bench bench-secret \
      "$imap_folder/pki/ca.pem" "$imap_messages")
  fi
  sources_stop
  record 12.1 "floor: LMTP delivery → a raw IDLE client's EXISTS (bench/imap-floor), $imap_messages: p50" imap-floor \
    "$(field "$line" deliver_floor_p50_us)" µs lower "$line"
  record 12.2 "… floor p99" imap-floor "$(field "$line" deliver_floor_p99_us)" µs lower
  record 12.3 "floor: another session's \\Seen → the IDLE client's FETCH: p50" imap-floor "$(field "$line" seen_floor_p50_us)" µs lower
  record 12.4 "… floor p99" imap-floor "$(field "$line" seen_floor_p99_us)" µs lower
  [ "$(field "$line" deliver_p50_us)" != null ] || return 0
  record 12.5 "LMTP delivery → the watcher's EVENT: p50" badged "$(field "$line" deliver_p50_us)" µs lower
  record 12.6 "… p99 (goal: at most 20 ms above the floor's p99)" badged "$(field "$line" deliver_p99_us)" µs lower
  record 12.7 "another session's \\Seen → the count one lower on the watcher: p50" badged "$(field "$line" seen_p50_us)" µs lower
  record 12.8 "… p99" badged "$(field "$line" seen_p99_us)" µs lower
  record 12.12 "delivery: the program's p99 less the floor's p99 in this run (goal: at most 20 ms)" badged \
    "$(field "$line" deliver_added_p99_us)" µs lower
  record 12.13 "… the ratio of the two p99s" badged "$(field "$line" deliver_ratio_p99)" × lower
  record 12.16 "\\Seen: the program's p99 less the floor's p99 in this run" badged "$(field "$line" seen_added_p99_us)" µs lower
}

# 12.9, 12.14: dovecot restarted (every process of it) $imap_restarts times, a message delivered
# while it is down: from its port answering again (probed every 50 ms) to the count with that
# message. The connection retries 0.5–1 s after it closed, then 1–2 s, 2–4 s… (Backoff, 1 s
# doubling, each delay drawn from its upper half): the time down is in the JSON beside it.
imap_restart() {
  imap_config "$imap_folder/restart.conf" bench
  sources_start "$imap_folder/restart.conf"
  local unread i down answered seen
  local -a times=() outages=()
  unread=$(imap_unseen)
  sources_measure wait "$socket" "$unread" bench >/dev/null || { sources_stop; return 1; }
  for i in $(seq "$imap_restarts"); do
    imap_until_start "$((unread + 1))"
    down=$(date +%s%N)
    imap_dovecot_stop
    imap_deliver_down "down$i"
    imap_dovecot_start
    answered=$(date +%s%N)
    seen=$(imap_until_stamp)
    unread=$((unread + 1))
    times+=("$(( (seen - answered) / 1000000 ))") outages+=("$(( (answered - down) / 1000000 ))")
  done
  local raw; raw=$(jq -cn --argjson ms "[$(IFS=,; echo "${times[*]}")]" --argjson down "[$(IFS=,; echo "${outages[*]}")]" \
    '{restarts: ($ms | length), answered_to_count_ms: $ms, down_ms: $down}')
  record 12.9 "dovecot restarted ($imap_restarts times, one delivery while down): from its port answering to the count right, max" \
    badged "$(jq '.answered_to_count_ms | max' <<< "$raw")" ms lower "$raw"
  record 12.14 "… median" badged "$(jq '.answered_to_count_ms | sort | .[length / 2 | floor]' <<< "$raw")" ms lower
  sources_stop
}

# 12.15: the link between badged-sources (in its namespace) and dovecot cut for $imap_cut_seconds
# s, $imap_cuts times, under TCP keepalive's 60 s, a message delivered meanwhile: dovecot's push
# of it is lost on the way and sent again by TCP on its retransmission schedule (RTO doubling
# from about 200 ms), which the connection, quiet in IDLE, never notices. From the link up again
# to the count with that message (ms, signed: a negative time would say the cut did not cut).
imap_cut() {
  [ -n "$imap_namespace" ] || return 0
  IMAP_HOST=$imap_link_host imap_config "$imap_folder/cut.conf" bench
  "${server_pin[@]}" ip netns exec "$imap_namespace" "$bin/badged-sources" --socket "$socket" \
    --config "$imap_folder/cut.conf" 2>>"$sources_folder/badged-sources.log" &
  sources_pid=$!
  local unread healed seen i
  local -a times=()
  unread=$(imap_unseen)
  sources_measure wait "$socket" "$unread" bench >/dev/null || { sources_stop; return 1; }
  for i in $(seq "$imap_cuts"); do
    imap_until_start "$((unread + 1))"
    ip link set "$imap_link_far" down
    imap_deliver "cut $i"
    sleep "$imap_cut_seconds"
    ip link set "$imap_link_far" up
    healed=$(date +%s%N)
    seen=$(imap_until_stamp)
    unread=$((unread + 1))
    times+=("$(( (seen - healed) / 1000000 ))")
  done
  local raw; raw=$(jq -cn --argjson ms "[$(IFS=,; echo "${times[*]}")]" --argjson s "$imap_cut_seconds" \
    '{cuts: ($ms | length), cut_s: $s, healed_to_count_ms: $ms}')
  record 12.15 "the link to dovecot cut for $imap_cut_seconds s, $imap_cuts times (one delivery each): from the link up to the count right, max" \
    badged "$(jq '.healed_to_count_ms | max' <<< "$raw")" ms lower "$raw"
  sources_stop
}

# 12.10–12.11: $imap_accounts accounts in IDLE: CPU ticks of badged-sources over $imap_idle_seconds s,
# and its RSS per account.
imap_idle() {
  local accounts; accounts=$(seq -f 'acct%g' "$imap_accounts")
  # shellcheck disable=SC2086 # one word per account
  imap_config "$imap_folder/idle.conf" $accounts
  sources_start "$imap_folder/idle.conf"
  # shellcheck disable=SC2086
  sources_measure wait "$socket" 0 $accounts >/dev/null || { sources_stop; return 1; }
  sleep 1
  local before; before=$(cpu_ticks "$sources_pid")
  sleep "$imap_idle_seconds"
  record 12.10 "$imap_accounts accounts in IDLE: CPU ticks of badged-sources in $imap_idle_seconds s (goal: 0)" badged \
    "$(( $(cpu_ticks "$sources_pid") - before ))" ticks lower
  record 12.11 "… RSS of badged-sources per account" badged "$(( $(rss_kb "$sources_pid") / imap_accounts ))" KiB lower
  sources_stop
}

# dovecot stopped, its folder and the namespace gone (bench/run's cleanup, and the end of the
# scenario).
imap_stop() {
  imap_dovecot_stop
  imap_link_down
  [ -z "$imap_folder" ] || rm -rf "$imap_folder"
  imap_folder=""
}

imap_scenarios() {
  mkdir -p "$sources_folder"
  imap_prepare
  imap_dovecot_start
  start_badged never
  imap_latency
  if [ "$imap_counted" = yes ]; then
    imap_restart
    imap_cut
    imap_idle
  fi
  stop_server
  imap_stop
}
