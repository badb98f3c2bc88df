import TestSupport

@testable import BadgeCore
@testable import BadgeProtocol

/// Request values of every command: each with its edge values, and drawn at random, each a value
/// the parser can make (the ranges the protocol gives, `CONFIGURE`'s resets in the settings'
/// order, an error text without a line break or a blank at its end).
enum RequestValues {
  static let names = ["a", "Mail", "app:org.example.App", "x_1-2.3", String(repeating: "n", count: 64)].map(name)
  static let amounts = [1, 2, 99, Limits.maxCount]
  static let counts = [0] + amounts
  static let totals = [0, 1, 17, Limits.maxCount, Int.max]
  static let pulses = [1, 300, Limits.pulseMs.upperBound]
  static let durations = [1, 1500, 90_000, Limits.dndMs.upperBound]
  static let hosts = ["h", "desk", "laptop.lan", String(repeating: "h", count: 64)]
  static let patterns = ["mail", "app:*", "?x", "*", "a*b?"].map(pattern)
  /// A valid value of each setting, two where it has a choice.
  static let settingValues: [(SettingKey, [String])] = [
    (.maxLabel, ["1", "9", "2147483647"]), (.style, ["count", "dot"]), (.pulseMs, ["0", "3600000"]),
    (.muted, ["yes", "no"]), (.badge, ["count", "unseen"]), (.dnd, ["obey", "ignore"]),
    (.step, ["1", "2147483647"]), (.export, ["org.example.App", String(repeating: "e", count: 255)]),
  ]

  /// Every command with its edge values.
  static var edges: [Request] {
    var requests: [Request] = [.hello, .ping, .list, .unwatch, .reload, .quit, .forwards, .clearAll, .seenAll]
    for name in names {
      requests += amounts.flatMap { [.write(name, .incr($0)), .write(name, .decr($0))] }
      requests += counts.map { .write(name, .set($0)) }
      requests += counts.flatMap { n in
        [
          .write(name, .report(count: n, arrived: n, unseen: nil)),
          .write(name, .report(count: n, arrived: 0, unseen: n)),
        ]
      }
      requests += ([nil] + totals).flatMap { [.write(name, .clear(upTo: $0)), .write(name, .seen(upTo: $0))] }
      requests += [.write(name, .mute), .write(name, .unmute), .get(name), .forgetMirror(name)]
      requests += ([nil] + pulses).map { .write(name, .pulse(ms: $0)) }
    }
    for (key, values) in settingValues {
      for value in values { requests.append(configure(names[1], [(key, value)])) }
      requests.append(.configure(names[1], set: .empty, reset: [key]))
    }
    requests.append(configure(names[4], settingValues.map { ($0.0, $0.1.last!) }))
    requests.append(.configure(names[0], set: .empty, reset: SettingKey.allCases))
    requests += [.dnd(.query), .dnd(.on(ms: nil)), .dnd(.off), .dnd(.toggle)] + durations.map { .dnd(.on(ms: $0)) }
    requests += [.watch([]), .watch(patterns), .stats(.day, [])]
    requests += [.watch([], since: 0), .watch(patterns, since: UInt64.max)]
    requests += StatsPeriod.allCases.map { .stats($0, patterns) }
    requests += hosts.flatMap { host in
      [
        .bridge(.attach(host: host)), .stale(host: host, stale: true, since: nil),
        .stale(host: host, stale: false, since: 0), .stale(host: host, stale: true, since: 1_764_620_000),
        .remoteDND(RemoteDND(on: true, from: host, at: 0)),
        .remoteDND(RemoteDND(on: false, from: host, at: UInt64(Int.max))),
        .remoteDND(RemoteDND(on: true, ms: Limits.dndMs.upperBound, from: host, at: 1_764_620_000_123)),
      ]
    }
    requests += [
      .bridge(.query), .bridge(.status(BridgeStatus(connected: true))),
      .bridge(.status(BridgeStatus(connected: false, broker: "mqtts://hub.lan:8883", pending: Limits.maxCount))),
      .bridge(.status(BridgeStatus(connected: false, broker: "mqtt://b", pending: 0, error: "a  b\tc =d"))),
      .delivered("l:1:1"), .delivered(String(repeating: "i", count: 64)),
    ]
    requests += [.sources(.query), .sources(.attach), .sources(.config(error: nil))]
    requests += [.sources(.config(error: "badged.conf:12: Unknown key 'fodlers' in [source.mail];  x"))]
    requests += [
      .source("mail", .claim(names[0], markRead: false)), .source(hosts[3], .claim(names[2], markRead: true)),
      .source("mail", .release(names[1])),
      .source("mail", .status(SourceStatus(name: "mail", kind: "maildir", state: .waiting))),
      .source(
        "lists",
        .status(
          SourceStatus(
            name: "lists", kind: "notmuch", state: .retrying, channels: 2, count: Limits.maxCount,
            changed: 1_764_620_000_123, retryAt: 1_764_620_012_000, error: "database locked  by notmuch new"))),
    ]
    requests += [
      MirrorUpdate(owner: "desk", count: 0, unseen: 0, total: 0, muted: false, dot: false),
      MirrorUpdate(
        owner: hosts[3], count: Limits.maxCount, unseen: Limits.maxCount, total: Limits.maxTotal, muted: true,
        dot: true,
        pulseMs: Limits.pulseMs.upperBound, ownerSeq: UInt64(Int.max), label: "2147483647+"),
      MirrorUpdate(owner: "nas", count: 3, unseen: 1, total: 10, muted: false, dot: true, label: "•"),
    ].map { .mirror(names[2], $0) }
    return requests
  }

  /// A request of a command drawn at random, with values drawn from the whole of its ranges.
  static func random(using random: inout SplitMix) -> Request {
    let name = names.randomElement(using: &random)!
    func number(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    func maybe<T>(_ value: @autoclosure () -> T) -> T? { Bool.random(using: &random) ? value() : nil }
    switch number(0...17) {
    case 0: return .write(name, .incr(number(ChannelWrite.amounts)))
    case 1: return .write(name, .decr(number(ChannelWrite.amounts)))
    case 2: return .write(name, .set(number(ChannelWrite.counts)))
    case 3: return .write(name, .clear(upTo: maybe(number(0...Int.max))))
    case 4: return .write(name, .seen(upTo: maybe(number(0...Int.max))))
    case 5: return .write(name, .pulse(ms: maybe(number(ChannelWrite.pulseLengths))))
    case 6:
      let chosen = settingValues.filter { _ in Bool.random(using: &random) }
      let reset = SettingKey.allCases.filter { key in
        !chosen.contains { $0.0 == key } && number(0...3) == 0
      }
      var set = SettingsOverride.empty
      for (key, values) in chosen { try! key.parse(values.randomElement(using: &random)!, into: &set) }
      guard !set.isEmpty || !reset.isEmpty else { return .configure(name, set: .empty, reset: [.step]) }
      return .configure(name, set: set, reset: reset)
    case 7: return .dnd(maybe(.on(ms: maybe(number(Limits.dndMs)))) ?? .off)
    case 8:
      let since = maybe(UInt64.random(in: 0...UInt64.max, using: &random))
      return .watch(patterns.filter { _ in Bool.random(using: &random) }, since: since)
    case 9: return .stats(StatsPeriod.allCases.randomElement(using: &random)!, patterns.shuffled(using: &random))
    case 10:
      let on = Bool.random(using: &random)
      let from = hosts.randomElement(using: &random)!
      return .remoteDND(
        RemoteDND(on: on, ms: on ? maybe(number(Limits.dndMs)) : nil, from: from, at: UInt64(number(0...Int.max))))
    case 11:
      return .stale(
        host: hosts.randomElement(using: &random)!, stale: Bool.random(using: &random),
        since: maybe(number(0...Int.max)))
    case 12:
      let count = number(ChannelWrite.counts)
      let update = MirrorUpdate(
        owner: hosts.randomElement(using: &random)!, count: count, unseen: number(0...count),
        total: number(count...Limits.maxTotal), muted: Bool.random(using: &random), dot: Bool.random(using: &random),
        pulseMs: number(Limits.pulseMs), ownerSeq: UInt64(number(0...Int.max)), label: String(number(0...99)))
      return .mirror(name, update)
    case 13:
      let error = ["", "refused", "TLS: certificate expired", "x  y", "a\u{0C}b\rc\u{0}d", " lead"].randomElement(
        using: &random)!
      let status = BridgeStatus(
        connected: Bool.random(using: &random), broker: "mqtts://b\(number(0...9)):8883",
        pending: number(0...Limits.maxCount), error: error)
      return .bridge(.status(status))
    case 14: return .write(name, Bool.random(using: &random) ? .mute : .unmute)
    case 15: return .get(name)
    case 16: return .forgetMirror(name)
    default: return [.clearAll, .seenAll, .hello, .ping, .list, .forwards].randomElement(using: &random)!
    }
  }

  /// `CONFIGURE` of `values`, each parsed as the config file writes it.
  static func configure(_ name: ChannelName, _ values: [(SettingKey, String)]) -> Request {
    var set = SettingsOverride.empty
    for (key, value) in values { try! key.parse(value, into: &set) }
    return .configure(name, set: set, reset: [])
  }
}
