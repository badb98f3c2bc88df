# Sourced by bench/run: scenario 12, the IMAP source. Debian's dovecot of the run's own (TLS from
# a CA made here, LMTP on a Unix socket, users bench and acct1..10), a raw IDLE client on it as
# the floor (bench/imap-floor), and badged-sources with a `kind = imap` source per account. The
# measuring side (bench/lib/imap.py) delivers through LMTP and sets \Seen from a session of its
# own, each timed to the floor's push and to the watcher's EVENT. Rows 12.x; how to read them:
# BENCHMARKS.md, "The IMAP source". Needs root (dovecot writes the mail as nobody).
# Uses: $bin, $work, $smoke, $socket, server_pin, generator_pin, record, field, start_badged,
# stop_server, rss_kb, cpu_ticks (servers.sh, results.sh); sources_start, sources_stop,
# sources_pid (sources.sh).

# dovecot's folder: beside $work, not in it ($work is 0700, and dovecot's auth process, which is
# not root, must reach the passwd-file); made by imap_prepare, removed by imap_stop.
imap_folder=""
imap_port=""
imap_master=""
if [ "$smoke" = 1 ]; then imap_messages=10 imap_idle_seconds=2; else
  imap_messages=${BENCH_IMAP_MESSAGES:-500} imap_idle_seconds=10
fi
imap_accounts=10
# Whether badged-sources counted the IMAP source in 12.5 (the rows after it need it).
imap_counted=no

imap_measure() { "${generator_pin[@]}" /usr/bin/python3 bench/lib/imap.py "$@"; }

# A CA and a certificate for localhost and 127.0.0.1, the passwd-file, and dovecot's config (the
# tests' own, Tests/EndToEndTests/Fixtures/dovecot.conf).
imap_prepare() {
  imap_folder=$(mktemp -d /tmp/badged-imap.XXXXXX)
  local d=$imap_folder i
  mkdir -p "$d/pki" "$d/run" "$d/state" "$d/mail"
  chmod 711 "$d"; chown 65534:65534 "$d/mail"
  local curve=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
  openssl req -x509 "${curve[@]}" -days 2 -subj /CN=bench-ca -keyout "$d/pki/ca.key" -out "$d/pki/ca.pem" 2>/dev/null
  openssl req "${curve[@]}" -subj /CN=localhost -keyout "$d/pki/srv.key" -out "$d/pki/srv.csr" 2>/dev/null
  printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' > "$d/pki/ext"
  openssl x509 -req -in "$d/pki/srv.csr" -CA "$d/pki/ca.pem" -CAkey "$d/pki/ca.key" -CAcreateserial -days 2 \
    -extfile "$d/pki/ext" -out "$d/pki/srv.pem" 2>/dev/null
  chmod 644 "$d"/pki/*
  : > "$d/passwd"
  for i in bench $(seq -f 'acct%g' "$imap_accounts"); do printf '%s:{PLAIN}%s-secret::::::\n' "$i" "$i" >> "$d/passwd"; done
  imap_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  sed -e "s|@BASE@|$d|g" -e "s|@LISTEN@|127.0.0.1|" -e "s|@PORT@|$imap_port|" -e "s|@MECHANISMS@|plain login|" \
    Tests/EndToEndTests/Fixtures/dovecot.conf > "$d/dovecot.conf"
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

# `[source.<account>] kind = imap` for each account, per the IMAP source's keys.
imap_config() {  # config account...
  local config=$1 account; shift
  : > "$config"
  for account in "$@"; do
    printf '%s-secret\n' "$account" > "$imap_folder/$account.password"; chmod 600 "$imap_folder/$account.password"
    printf '[source.%s]\nkind = imap\nserver = imaps://127.0.0.1:%s\nusername = %s\npassword_file = %s\nca_file = %s\n\n' \
      "$account" "$imap_port" "$account" "$imap_folder/$account.password" "$imap_folder/pki/ca.pem" >> "$config"
  done
}

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
}

# 12.9: dovecot restarted (every process of it): from its port answering again to the count right.
imap_restart() {
  imap_config "$imap_folder/restart.conf" bench
  sources_start "$imap_folder/restart.conf"
  local unread
  unread=$(doveadm -c "$imap_folder/dovecot.conf" mailbox status -u bench unseen INBOX | sed 's/.*unseen=//')
  sources_measure wait "$socket" "$unread" bench >/dev/null || { sources_stop; return 1; }
  imap_dovecot_stop
  printf 'Subject: while down\r\n\r\nx\r\n' > "$imap_folder/down.eml"
  imap_dovecot_start
  local start; start=$(date +%s%N)
  /usr/lib/dovecot/dovecot-lda -c "$imap_folder/dovecot.conf" -d bench -f bench@example.org < "$imap_folder/down.eml"
  sources_measure wait "$socket" "$((unread + 1))" bench >/dev/null
  record 12.9 "dovecot restarted: from its port answering (and one delivery) to the count right" badged \
    "$(( ($(date +%s%N) - start) / 1000000 ))" ms lower
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

# dovecot stopped and its folder gone (bench/run's cleanup, and the end of the scenario).
imap_stop() {
  imap_dovecot_stop
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
    imap_idle
  fi
  stop_server
  imap_stop
}
