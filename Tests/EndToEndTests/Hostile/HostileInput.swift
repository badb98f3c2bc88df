import TestSupport

/// What a `HostileServer` sends a watching client: every kind of garbage a client must read
/// through without keeping it, crashing or stalling, each in a fixed amount, from a fixed seed.
enum HostileInput {
  /// How many channels a client shows at most (`ShownChannels.limit`, badgectl(1) LIMITS).
  static let shownChannels = 10_000
  /// How many requests may await replies at once (`Watcher.maxAwaiting`, badgectl(1) LIMITS).
  static let awaitedRequests = 20_000
  /// How many of the channels shown have unread items once the garbage is sent: the first
  /// thousand got events with counts from 1, the others have counts of `n % 300`.
  static let channelsWithUnreadItems = (0..<shownChannels).filter { $0 < 1000 || $0 % 300 != 0 }.count
  /// The peak resident memory a client may reach on all of it, in MiB: about twice what
  /// `top` needs for `shownChannels` channels in a debug build, and half of what the garbage
  /// would take if a client kept its long lines or its long names.
  static let peakMiB = 64

  /// A watching client's first connection: its `WATCH` answered, the garbage, then an event
  /// for the first channel at 7. Shown, that event says the client has read all before it; the
  /// part's sends return once the client has read all but what the socket holds.
  static func answerWatchWithGarbage(_ connection: HostileConnection) throws {
    _ = try connection.readLine(startingWith: "WATCH")
    try connection.send("OK watching\n")
    try sendGarbage(to: connection)
    try connection.send(state(channel(0), count: "7", seq: 30_000))
  }

  /// A well-behaved server: `WATCH` answered with `mail` at 3, then quiet until the end.
  static let answerWatchWithMail: HostileServer.Part = { connection in
    _ = try connection.readLine(startingWith: "WATCH")
    try connection.send(state("mail", kind: "STATE", count: "3") + "OK watching\n")
    try connection.holdOpen()
  }

  /// A state or event line as badged writes it, with any field's text (out of range too).
  static func state(
    _ name: String, kind: String = "EVENT", count: String, label: String? = nil, pulse: String = "0",
    unseen: String? = nil, seq: Int = 1
  ) -> String {
    "\(kind) \(name) count=\(count) label=\(label ?? count) dot=0 pulse=\(pulse) muted=0 seq=\(seq) "
      + "badge=count dnd=off unseen=\(unseen ?? count)\n"
  }

  /// The name of garbage channel `n`: in name order as in number order, so the first one is
  /// the one a dashboard selects and they all sort after `mail`.
  static func channel(_ n: Int) -> String {
    "x" + String(repeating: "0", count: max(0, 5 - String(n).count)) + String(n)
  }

  /// Sends the garbage, in pieces of at most a few MiB made as they go (it is over 100 MiB in
  /// all): random bytes; lines that answer nothing (statuses, data, statistics,
  /// do-not-disturb); long data lines and lines past the client's 64 KiB limit; events with
  /// values out of range and with names of 60,000 bytes; then an event for each of
  /// `shownChannels + 500` new channels, and more for the first thousand of them.
  static func sendGarbage(to connection: HostileConnection) throws {
    var random = SplitMix(seed: 0xBAD6E)
    for _ in 0..<64 {
      var piece: [UInt8] = []
      piece.reserveCapacity(1 << 16)
      for _ in 0..<(1 << 13) { withUnsafeBytes(of: random.next()) { piece += $0 } }
      try connection.send(piece)
    }
    try connection.send("\n" + unanswered())
    let dataLines = String(repeating: String(repeating: "d", count: 64_000) + "\n", count: 64)
    for _ in 0..<16 { try connection.send(dataLines) }
    let overLong = String(repeating: "y", count: 1 << 20) + "\n"
    for _ in 0..<4 { try connection.send(overLong) }
    try connection.send(outOfRange())
    let longName = String(repeating: "n", count: 60_000)
    for batch in 0..<16 {
      try connection.send((0..<64).map { state(longName + "\(batch * 64 + $0)", count: "1") }.joined())
    }
    for batch in stride(from: 0, to: shownChannels + 500, by: 500) {
      try connection.send(
        (batch..<batch + 500).map { n in
          state(channel(n), count: String(n % 300), pulse: n % 3 == 0 ? "3000" : "0", seq: n)
        }.joined())
    }
    try connection.send((0..<1000).map { state(channel($0), count: String($0 + 1), seq: 20_000 + $0) }.joined())
  }

  /// Lines of every kind a reply has, sent when the client asked nothing.
  static func unanswered() -> String {
    var lines = ["OK", "OK watching", "ERR failed nothing was asked", "ERR", "badged 9.9 protocol=9"]
    lines += ["STATS x00000 period=week from=2026-11-24 to=2026-11-30 arrivals=1 clears=0 peak=1"]
    lines += ["DAY x00000 2026-11-30 arrivals=1 clears=0 peak=1", "STATE * dnd=1 left=0", "EVENT * dnd=0 left=0"]
    return String(repeating: lines.joined(separator: "\n") + "\n", count: 2000)
  }

  /// State lines whose values no daemon sends: what once made clients trap (a pulse window of
  /// 292 million years), keep long labels, or count below zero.
  static func outOfRange() -> String {
    let big = "9223372036854775807"
    var lines = [
      state("huge", count: big), state("huge", count: "1", pulse: big), state("huge", count: "-5"),
      state("huge", count: "1", unseen: big), state("huge", count: "1", unseen: "-1"),
      state("huge", count: "1", label: String(repeating: "9", count: 60_000)), state("huge", count: "2147483648"),
      state("m@il", count: "1"), "STATE * dnd=1 left=\(big)\n", "EVENT * dnd=1 left=-1\n",
    ]
    lines += (0..<100).map { state("huge\($0)", count: "1", pulse: "3600001") }
    return String(repeating: lines.joined(), count: 10)
  }

  /// A `STATS` reply that no daemon sends, for `channel`: figures of other days and channels,
  /// totals that span every day from year 1 to 9999, then the real figures (`arrivals` on the
  /// last day of the week ending 2026-11-30), and another channel's figures after them.
  static func statsReply(for channel: String, arrivals: Int) -> String {
    var lines: [String] = []
    lines += (0..<10_000).map { "DAY \(channel) 2001-01-01 arrivals=\($0) clears=0 peak=0" }
    lines += (0..<100).map { _ in
      "STATS \(channel) period=year from=0001-01-01 to=9999-12-31 arrivals=1 clears=0 peak=1"
    }
    lines += [
      "STATS \(channel) period=week from=2026-11-24 to=2026-11-30 arrivals=\(arrivals) clears=2 peak=\(arrivals)"
    ]
    lines += ["DAY \(channel) 2026-11-30 arrivals=\(arrivals) clears=2 peak=\(arrivals)"]
    lines += ["STATS other period=week from=2026-11-24 to=2026-11-30 arrivals=1 clears=0 peak=1"]
    lines += (0..<10_000).map { _ in "DAY other 2026-11-30 arrivals=1 clears=0 peak=1" }
    return lines.joined(separator: "\n") + "\nOK\n"
  }
}
