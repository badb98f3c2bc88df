import BadgeCore
import BadgeProtocol

/// Everything the bridge says to its daemon and reads from it, in one place: the lines of
/// docs/PROTOCOL.md that sharing between machines adds (`BRIDGE`, `FORWARDS`, `MIRROR`,
/// `STALE`, `DELIVERED`, `DND … from= at=`) and the fields it reads on state lines (`total`,
/// `owner`) and on the do-not-disturb line (`from`, `at`).
///
/// Nothing else in the bridge spells a protocol word; a change in the daemon's side of the
/// contract is a change here.
public enum DaemonLink {
  // MARK: Requests

  /// The first line on the connection: this connection is the bridge of `host`.
  public static func hello(host: String) -> String { "BRIDGE host=\(host)" }

  /// Takes the forward outbox: every pending write as `FORWARD` lines, then each new one pushed.
  public static let takeForwards = "FORWARDS"

  /// Watches the shared channels (their events, and do-not-disturb's, which every watcher
  /// gets); without patterns, every channel.
  public static func watch(_ patterns: [ChannelPattern]) -> String {
    (["WATCH"] + patterns.map(\.description)).joined(separator: " ")
  }

  /// Puts another machine's state of a channel into this machine's daemon.
  public static func mirror(_ channel: ChannelName, _ state: ChannelState) -> String {
    let figures = state.figures
    var line = "MIRROR \(channel) owner=\(state.owner) count=\(figures.count) unseen=\(figures.unseen)"
    if let total = figures.total { line += " total=\(total)" }
    line += " muted=\(figures.muted ? 1 : 0) dot=\(figures.dot ? 1 : 0) label=\(figures.label) pulse=\(figures.pulseMs)"
    return line + " oseq=\(figures.seq)"
  }

  /// The owner stopped sharing the channel: the daemon drops its mirror.
  public static func forget(_ channel: ChannelName) -> String { "MIRROR \(channel) forget" }

  /// Whether `host`'s channels are stale (the host or the broker unreachable), and since when
  /// this machine last heard from it (unix seconds).
  public static func stale(host: String, _ stale: Bool, since: Int64?) -> String {
    "STALE \(host) \(stale ? 1 : 0)" + (stale ? since.map { " since=\($0)" } ?? "" : "")
  }

  /// The owner answered a forwarded write: the daemon drops it from its outbox.
  public static func delivered(_ id: String) -> String { "DELIVERED \(id)" }

  /// A write as a request line: what an owner's bridge sends its daemon for a command, and
  /// what a mirror's daemon hands its bridge in a `FORWARD` line.
  public static func request(_ channel: ChannelName, _ command: ChannelCommand) -> String {
    var words = [command.op.word.uppercased(), channel.description]
    switch command.op {
    case .incr(let n), .decr(let n), .set(let n): words.append(String(n))
    case .clear(let upto), .seen(let upto): if let upto { words.append("upto=\(upto)") }
    case .pulse(let ms): if let ms { words.append(String(ms)) }
    case .mute, .unmute: break
    }
    // A pulse changes nothing that persists, so it has no id to count it once.
    if let id = command.id, !isPulse(command.op) { words.append("id=\(id)") }
    return words.joined(separator: " ")
  }

  private static func isPulse(_ op: ChannelCommand.Op) -> Bool {
    if case .pulse = op { return true }
    return false
  }

  /// Applies another machine's do-not-disturb change, which the daemon does not hand back as
  /// one of its own (its `*` line then says `from=<host>`), and refuses when it already
  /// applied a newer one. The daemon takes a timed end as a duration: what is left of it at
  /// `nowMs` (this machine's wall clock, which the daemon shares), at most 30 days; an end
  /// already past is sent as off, which it is by now on the machine that made it.
  public static func remoteDND(_ state: DNDState, nowMs: Int64) -> String {
    let stamp = " from=\(state.host) at=\(state.at)"
    guard state.on else { return "DND off" + stamp }
    guard state.until > 0 else { return "DND on" + stamp }
    let left = state.until - nowMs
    guard left > 0 else { return "DND off" + stamp }
    return "DND on \(min(left, maxDNDMs))ms" + stamp
  }

  /// A change asked for on `<prefix>/dnd/set`, made here like a local one (and so published).
  public static func localDND(on: Bool, forMs: Int64?) -> String {
    guard on else { return "DND off" }
    return forMs.map { "DND on \($0)ms" } ?? "DND on"
  }

  /// The longest timed do-not-disturb the daemon takes (30 days).
  public static let maxDNDMs: Int64 = 30 * 24 * 3_600_000

  /// The bridge's state, for `badgectl` and the daemon's status line.
  public static func status(connected: Bool, broker: String, pending: Int, error: String?) -> String {
    var line = "BRIDGE status connected=\(connected ? 1 : 0) broker=\(broker) pending=\(pending)"
    if let error { line += " error=" + error.map { $0.isNewline ? " " : $0 }.map(String.init).joined() }
    return line
  }

  // MARK: Lines from the daemon

  /// A line the daemon sent, classified for the bridge.
  public enum Line: Equatable, Sendable {
    case ok(String)
    case error(code: String, message: String)
    /// A channel's state: a data line of a reply (`STATE`) or pushed (`EVENT`).
    case state(LocalState, pushed: Bool)
    /// Do-not-disturb's `*` line.
    case dnd(LocalDND, pushed: Bool)
    /// A write to a mirrored channel, for its owner: in the reply to `FORWARDS`, or pushed.
    case forward(id: String, channel: ChannelName, command: ChannelCommand)
    /// A `FORWARD` line whose write the bridge cannot read (a command of a later version).
    case unreadableForward(String)
    /// Anything else (a data line of a reply the bridge does not read).
    case other(String)

    public var isStatus: Bool {
      switch self {
      case .ok, .error: return true
      default: return false
      }
    }
  }

  /// A channel's state as this machine's daemon reports it.
  public struct LocalState: Equatable, Sendable {
    public var name: ChannelName
    public var figures: ChannelFigures
    /// The host that owns it when the channel is a mirror; `nil` for a channel of this machine.
    public var owner: String?

    public init(name: ChannelName, figures: ChannelFigures, owner: String? = nil) {
      self.name = name
      self.figures = figures
      self.owner = owner
    }
  }

  /// Do-not-disturb as the daemon reports it.
  public struct LocalDND: Equatable, Sendable {
    public var on: Bool
    public var leftMs: Int
    /// The machine a change came from, when it came from another (`from=`).
    public var from: String?
    /// When the change was made, in wall-clock milliseconds (`at=`), when the daemon says.
    public var at: Int64?

    public init(on: Bool, leftMs: Int, from: String? = nil, at: Int64? = nil) {
      self.on = on
      self.leftMs = leftMs
      self.from = from
      self.at = at
    }
  }

  public static func parse(_ line: String) -> Line {
    if line.hasPrefix("FORWARD ") { return forward(line.dropFirst(8)) }
    switch ReplyLine(line) {
    case .ok(let text): return .ok(text)
    case .error(let code, let message): return .error(code: code, message: message)
    case .state(let snapshot), .event(let snapshot):
      // The owner, which ReplyLine read (to the daemon's rule), must be a name this side takes.
      let owner = snapshot.mirror?.owner
      guard let name = ChannelName(snapshot.channel), owner.map(MeshConfig.isHostName) ?? true else {
        return .other(line)
      }
      let figures = ChannelFigures(
        count: snapshot.count, label: snapshot.label, dot: snapshot.dot, muted: snapshot.muted, unseen: snapshot.unseen,
        total: snapshot.total.map(Int64.init), seq: snapshot.seq, pulseMs: snapshot.pulseMs)
      let state = LocalState(name: name, figures: figures, owner: owner)
      return .state(state, pushed: line.hasPrefix("EVENT "))
    case .dnd(let dnd, let pushed):
      // `from=`, which ReplyLine read, must be a name this side takes.
      let from = dnd.from.flatMap { MeshConfig.isHostName($0) ? $0 : nil }
      return .dnd(LocalDND(on: dnd.isOn, leftMs: dnd.leftMs, from: from, at: dnd.at), pushed: pushed)
    case .data:
      return .other(line)
    }
  }

  /// `FORWARD <id> <request line>`.
  private static func forward(_ rest: Substring) -> Line {
    let words = protocolWords(rest)
    guard words.count >= 3, RequestID.isValidToken(String(words[0])), let name = ChannelName(words[2]) else {
      return .unreadableForward(String(rest))
    }
    let id = String(words[0])
    var numbers: [Int64] = []
    var upto: Int64?
    for word in words[3...] {
      if word.hasPrefix("upto=") {
        guard let value = Int64(word.dropFirst(5)), value >= 0 else { return .unreadableForward(String(rest)) }
        upto = value
      } else if word.hasPrefix("id=") {
        guard word.dropFirst(3) == id else { return .unreadableForward(String(rest)) }
      } else if let number = Int64(word), number >= 0, number <= Int64(Limits.maxCount) {
        numbers.append(number)
      } else {
        return .unreadableForward(String(rest))
      }
    }
    let op: ChannelCommand.Op
    switch (words[1].uppercased(), numbers.count, upto) {
    case ("INCR", 0...1, nil): op = .incr(Int(numbers.first ?? 1))
    case ("DECR", 0...1, nil): op = .decr(Int(numbers.first ?? 1))
    case ("SET", 1, nil): op = .set(Int(numbers[0]))
    case ("CLEAR", 0, _): op = .clear(upto: upto)
    case ("SEEN", 0, _): op = .seen(upto: upto)
    case ("MUTE", 0, nil): op = .mute
    case ("UNMUTE", 0, nil): op = .unmute
    case ("PULSE", 0...1, nil): op = .pulse(ms: numbers.first.map(Int.init))
    default: return .unreadableForward(String(rest))
    }
    if case .incr(let n) = op, n < 1 { return .unreadableForward(String(rest)) }
    if case .decr(let n) = op, n < 1 { return .unreadableForward(String(rest)) }
    return .forward(id: id, channel: name, command: ChannelCommand(op, id: id))
  }
}
