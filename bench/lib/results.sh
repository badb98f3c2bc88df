# Sourced by bench/run: recording measurements as JSON lines and printing the table of
# medians, min–max and ratios (badged / Redis).
# Uses: $results (the JSON lines file), $round.

# One measurement: row id (sorts the table), row title, server, value, unit, and whether
# higher or lower is better; the generator's whole JSON line goes along as "raw".
record() {  # id title server value unit higher|lower [raw-json]
  jq -cn --arg id "$1" --arg title "$2" --arg server "$3" --argjson value "$4" --arg unit "$5" \
    --arg better "$6" --argjson raw "${7:-null}" --argjson round "$round" \
    '{id: $id, title: $title, server: $server, value: $value, unit: $unit, better: $better, round: $round, raw: $raw}' \
    >> "$results"
}

# A field of a JSON line.
field() { jq -r ".$2" <<< "$1"; }

# The markdown table, rows in the order of their ids (10.2 before 10.10): per row, each
# server's median and min–max (mosquitto: the MQTT floor of scenario 10; imap-floor: the raw IDLE
# client of scenario 12), and the ratio of
# the medians, badged / Redis (for "lower" rows a ratio under 1 is badged ahead).
print_table() {
  jq -rs '
    def median: sort | if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end;
    def figure: if . >= 100 then (. | round | tostring) elif . >= 10 then ((. * 10 | round) / 10 | tostring)
      else ((. * 100 | round) / 100 | tostring) end;
    def cell($s): map(select(.server == $s) | .value) as $v
      | if ($v | length) == 0 then "–" else "\($v | median | figure) (\($v | min | figure)–\($v | max | figure))" end;
    def med($s): map(select(.server == $s) | .value) | if length == 0 then null else median end;
    "| measurement | unit | badged | Redis | echo | mosquitto_pub → mosquitto_sub | raw IDLE client | ratio badged/Redis |",
    "|---|---|---|---|---|---|---|---|",
    (group_by(.id | split(".") | map(tonumber))[] | . as $rows | $rows[0] as $r
      | (if (med("badged") != null and med("redis") != null and med("redis") != 0)
          then ((med("badged") / med("redis")) | figure) + (if $r.better == "lower" then " (lower is better)" else "" end)
          else "–" end) as $ratio
      | "| \($r.title) | \($r.unit) | \(cell("badged")) | \(cell("redis")) | \(cell("echo")) | \(cell("mosquitto")) | \(cell("imap-floor")) | \($ratio) |")
  ' "$results"
}
