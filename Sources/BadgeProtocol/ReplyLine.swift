import BadgeCore

/// One line a client receives, classified: the client side of the protocol.
public enum ReplyLine: Equatable, Sendable {
  case ok(String)
  case error(code: String, message: String)
  case state(ChannelSnapshot)
  case event(ChannelSnapshot)
  /// The `*` line: do-not-disturb's state, in a reply (`pushed` false) or pushed to a watcher.
  case dnd(DNDSnapshot, pushed: Bool)
  /// `FORWARD <id> <request line>`: a write to a mirrored channel for its owner, which the daemon
  /// hands the bridge in the reply to `FORWARDS` and pushes as each is taken.
  case forward(id: String, channel: ChannelName, write: ChannelWrite)
  /// `CLEARED <channel> upto=<total>`: a clear of a `mark-read` source's channel up to a running
  /// total, pushed to the sources connection, whose source marks read the items it covers.
  case cleared(channel: ChannelName, upTo: Int)
  /// `RELOADED`: pushed to the sources connection after the daemon reloaded its config.
  case reloaded
  /// Any other data line (`HELLO`'s version line).
  case data(String)

  /// The longest label a state line may carry, in bytes. The daemon's longest is 11
  /// (`2147483647+`); the room above it is for later versions.
  public static let maxLabelLength = 32

  /// Classifies a line received from the daemon (without its LF).
  ///
  /// A `STATE`, `EVENT` or `FORWARD` line that does not parse is returned as `.data` (a forward
  /// whose request a later version wrote, among them), so a newer daemon
  /// with more fields never breaks an older client. Nor does one whose values the daemon could
  /// never send (a name that breaks the naming rules, a count, unseen count or pulse window
  /// out of its range, a label over `maxLabelLength`): whatever a client keeps from a state
  /// line is then as small as a real one, and no value can take its arithmetic out of range.
  public init(_ line: String) {
    if line == "OK" {
      self = .ok("")
    } else if line.hasPrefix("OK ") {
      self = .ok(String(line.dropFirst(3)))
    } else if line.hasPrefix("ERR ") {
      let rest = line.dropFirst(4)
      if let space = rest.firstIndex(of: " ") {
        self = .error(code: String(rest[..<space]), message: String(rest[rest.index(after: space)...]))
      } else {
        self = .error(code: String(rest), message: "")
      }
    } else if line.hasPrefix("STATE * "), let dnd = DNDSnapshot(line.dropFirst(8)) {
      self = .dnd(dnd, pushed: false)
    } else if line.hasPrefix("EVENT * "), let dnd = DNDSnapshot(line.dropFirst(8)) {
      self = .dnd(dnd, pushed: true)
    } else if line.hasPrefix("STATE "), let snapshot = ReplyLine.snapshot(line.dropFirst(6)) {
      self = .state(snapshot)
    } else if line.hasPrefix("EVENT "), let snapshot = ReplyLine.snapshot(line.dropFirst(6)) {
      self = .event(snapshot)
    } else if line.hasPrefix("FORWARD "), let forward = ReplyLine.forward(line.dropFirst(8)) {
      self = forward
    } else if line.hasPrefix("CLEARED "), let cleared = ReplyLine.cleared(line.dropFirst(8)) {
      self = cleared
    } else if line == "RELOADED" {
      self = .reloaded
    } else {
      self = .data(line)
    }
  }

  /// Whether this line ends a reply.
  public var isStatus: Bool {
    switch self {
    case .ok, .error: return true
    default: return false
    }
  }

  /// Parses `<channel> upto=<total>`.
  static func cleared(_ text: Substring) -> ReplyLine? {
    let words = text.split(separator: " ")
    guard words.count == 2, let channel = ChannelName(String(words[0])), words[1].hasPrefix("upto="),
      let total = Int(words[1].dropFirst(5)), total >= 0
    else { return nil }
    return .cleared(channel: channel, upTo: total)
  }

  /// Parses `<id> <request line>`: the id of a forwarded write, then its request, read as the
  /// daemon reads requests (`RequestParser`): a write, whose line carries no id or this one.
  static func forward(_ text: Substring) -> ReplyLine? {
    let rest = text.drop { $0 == " " }
    let id = String(rest.prefix { $0 != " " })
    guard RequestID.isValidToken(id) else { return nil }
    guard case .success(let parsed)? = RequestParser.parse(String(rest.dropFirst(id.utf8.count))),
      case .write(let channel, let write) = parsed.request,
      parsed.id == nil || parsed.id == RequestID(token: id, fingerprint: parsed.request.fingerprint)
    else { return nil }
    return .forward(id: id, channel: channel, write: write)
  }

  /// Parses `<channel> key=value ...`; unknown keys are skipped (forward compatibility), and
  /// the fields later versions added (`badge`, `dnd`, `unseen`, `total`) may be missing (an
  /// older daemon). `step` is sent only when it is not 1, so a missing one reads as 1. Each
  /// value must be in the range the protocol gives it.
  static func snapshot(_ text: Substring) -> ChannelSnapshot? {
    var words = protocolWords(text)[...]
    guard let channel = words.popFirst(), ChannelName(channel) != nil else { return nil }
    let counts = 0...Limits.maxCount
    var snapshot = ChannelSnapshot(
      channel: String(channel), count: 0, label: "", dot: false, pulseMs: 0, muted: false, seq: 0)
    var seen: Set<Substring> = []
    var unseen: Int?
    var mirror: MirrorState?
    var source: SourceMark?
    for word in words {
      guard let eq = word.utf8.firstIndex(of: UInt8(ascii: "=")) else { return nil }
      let key = word[..<eq]
      let value = word[word.utf8.index(after: eq)...]
      switch key {
      case "count":
        guard let n = Int(value), counts.contains(n) else { return nil }
        snapshot.count = n
      case "label":
        guard value.utf8.count <= ReplyLine.maxLabelLength else { return nil }
        snapshot.label = String(value)
      case "dot": snapshot.dot = value == "1"
      case "pulse":
        guard let n = Int(value), Limits.pulseMs.contains(n) else { return nil }
        snapshot.pulseMs = n
      case "muted": snapshot.muted = value == "1"
      case "seq":
        guard let n = UInt64(value) else { return nil }
        snapshot.seq = n
      case "badge":
        snapshot.badge = BadgeCounts(rawValue: String(value)) ?? .count
        continue
      case "dnd":
        snapshot.silenced = DNDBadges(rawValue: String(value))
        continue
      case "unseen":
        guard let n = Int(value), counts.contains(n) else { return nil }
        unseen = n
        continue
      case "step":
        guard let n = Int(value), Limits.step.contains(n) else { return nil }
        snapshot.step = n
        continue
      case "total":
        guard let n = Int(value), n >= 0 else { return nil }
        snapshot.total = n
        continue
      case "owner":
        guard MirrorState.isValidHost(String(value)) else { return nil }
        mirror = MirrorState(owner: String(value))
        continue
      case "source":
        guard SourceMark.isValidName(String(value)) else { return nil }
        source = SourceMark(name: String(value))
        continue
      case "stale":
        mirror?.stale = value == "1"
        source?.stale = value == "1"
        continue
      case "since":
        guard let n = Int(value), n >= 0 else { return nil }
        mirror?.since = n
        source?.since = n
        continue
      case "pending":
        mirror?.pending = value == "1"
        continue
      default: continue
      }
      seen.insert(key)
    }
    snapshot.unseen = unseen ?? snapshot.count
    snapshot.mirror = mirror
    snapshot.source = source
    return seen.count == 6 ? snapshot : nil
  }
}

/// The daemon-wide do-not-disturb state as a client reads it from a `*` line.
public struct DNDSnapshot: Equatable, Sendable {
  public var isOn: Bool
  /// Milliseconds left of a timed do-not-disturb when the line was sent; 0 when off or untimed.
  public var leftMs: Int
  /// The machine the last change came from, when another machine made it (`from=`).
  public var from: String?
  /// When the last change was made, in wall-clock milliseconds (`at=`), once it has changed;
  /// `nil` also for a value that is not a positive number.
  public var at: Int64?

  public init(isOn: Bool, leftMs: Int, from: String? = nil, at: Int64? = nil) {
    self.isOn = isOn
    self.leftMs = leftMs
    self.from = from
    self.at = at
  }

  /// Parses `dnd=<0|1> left=<ms> [from=<host>] [at=<ms>]` (more fields may follow in later
  /// versions); `left` is at most the longest timed do-not-disturb.
  init?(_ text: Substring) {
    var isOn: Bool?
    var left: Int?
    var from: String?
    var at: Int64?
    for word in protocolWords(text) {
      guard let eq = word.utf8.firstIndex(of: UInt8(ascii: "=")) else { return nil }
      let value = word[word.utf8.index(after: eq)...]
      switch word[..<eq] {
      case "dnd": isOn = value == "1"
      case "left":
        guard let n = Int(value), (0...Limits.dndMs.upperBound).contains(n) else { return nil }
        left = n
      case "from": from = String(value)
      case "at": at = Int64(value).flatMap { $0 > 0 ? $0 : nil }
      default: continue
      }
    }
    guard let isOn, let left else { return nil }
    self.init(isOn: isOn, leftMs: left, from: from, at: at)
  }
}
