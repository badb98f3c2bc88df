import BadgeCore

/// One parsed request line of protocol v1.
public enum Request: Equatable, Sendable {
  case hello
  case ping
  case increment(ChannelName, by: Int)
  case decrement(ChannelName, by: Int)
  case set(ChannelName, to: Int)
  /// The channel's items up to the running total `upTo` are read (`nil`: every item).
  case clear(ChannelName, upTo: Int? = nil)
  case clearAll
  case get(ChannelName)
  case list
  /// The channel's items up to the running total `upTo` are seen (`nil`: every item, so
  /// `unseen` goes to 0).
  case seen(ChannelName, upTo: Int? = nil)
  case seenAll
  /// Start or extend the pulse window without changing the count; `nil`: the channel's `pulse_ms`.
  case pulse(ChannelName, ms: Int?)
  /// Do-not-disturb: query, turn on (for `ms`, or until turned off), off, or toggle.
  case dnd(DNDRequest)
  case mute(ChannelName)
  case unmute(ChannelName)
  /// Settings made over the socket, in the config file's words (`max_label=9 style=dot`);
  /// `key=default` drops a setting so that the config's value applies again.
  case configure(ChannelName, set: SettingsOverride, reset: [SettingKey])
  /// Subscribe to the channels matching any pattern; no pattern means every channel.
  case watch([ChannelPattern])
  case unwatch
  /// Per-day history of the channels matching any pattern (no pattern: every channel with
  /// history) over the period ending today.
  case stats(StatsPeriod, [ChannelPattern])
  /// Re-read the config file, as SIGHUP does.
  case reload
  case quit

  /// The command words, as clients send them (in any case).
  public enum Command: String, CaseIterable, Sendable {
    case hello = "HELLO", ping = "PING", incr = "INCR", decr = "DECR", set = "SET"
    case clear = "CLEAR", get = "GET", list = "LIST", mute = "MUTE", unmute = "UNMUTE"
    case configure = "CONFIGURE", watch = "WATCH", unwatch = "UNWATCH", reload = "RELOAD", quit = "QUIT"
    case stats = "STATS"
    case seen = "SEEN", pulse = "PULSE", dnd = "DND"
  }
}

/// A request line: the request, and the id it came with (`id=<token>`), if any.
public struct RequestLine: Equatable, Sendable {
  public var request: Request
  public var id: RequestID?

  public init(_ request: Request, id: RequestID? = nil) {
    self.request = request
    self.id = id
  }

  /// The text of the `OK` that answers a retried request (`OK repeated`).
  public static let repeatedText = "repeated"
}

extension Request {
  /// Whether the request may carry an id: it changes something that is saved (a channel, or
  /// do-not-disturb), so carrying it out twice could count twice.
  public var takesID: Bool {
    switch self {
    case .increment, .decrement, .set, .clear, .clearAll, .seen, .seenAll, .mute, .unmute, .configure: return true
    case .dnd(let request): return request != .query
    case .hello, .ping, .get, .list, .pulse, .watch, .unwatch, .stats, .reload, .quit: return false
    }
  }

  /// The request in its canonical form, one way of writing each request: what its id's
  /// fingerprint is taken of, so `INCR mail` and `incr  mail 1` are the same request. Only for
  /// requests that take an id.
  public var canonical: String {
    switch self {
    case .increment(let name, let n): return "INCR \(name) \(n)"
    case .decrement(let name, let n): return "DECR \(name) \(n)"
    case .set(let name, let n): return "SET \(name) \(n)"
    case .clear(let name, let upTo): return "CLEAR \(name)" + (upTo.map { " upto=\($0)" } ?? "")
    case .clearAll: return "CLEAR *"
    case .seen(let name, let upTo): return "SEEN \(name)" + (upTo.map { " upto=\($0)" } ?? "")
    case .seenAll: return "SEEN *"
    case .mute(let name): return "MUTE \(name)"
    case .unmute(let name): return "UNMUTE \(name)"
    case .configure(let name, let set, let reset):
      // Each key once, in the settings' order: set to its value, or reset.
      let settings = SettingKey.allCases.compactMap { key -> String? in
        if reset.contains(key) { return "\(key)=default" }
        var without = set
        key.reset(in: &without)
        return without == set ? nil : "\(key)=\(key.format(set.applied(to: .defaults)))"
      }
      return (["CONFIGURE \(name)"] + settings).joined(separator: " ")
    case .dnd(.on(let ms)): return "DND on" + (ms.map { " \($0)ms" } ?? "")
    case .dnd(.off): return "DND off"
    case .dnd(.toggle): return "DND toggle"
    case .dnd(.query), .hello, .ping, .get, .list, .pulse, .watch, .unwatch, .stats, .reload, .quit:
      return ""
    }
  }

  /// The fingerprint of `canonical`, which an id is saved with.
  public var fingerprint: UInt64 {
    var fingerprint = Fingerprint()
    fingerprint.add(canonical.utf8)
    return fingerprint.value
  }
}

/// What a `DND` request asks for.
public enum DNDRequest: Equatable, Sendable {
  /// `DND`: the state only.
  case query
  /// `DND on [<duration>]`: on for `ms`, or until turned off (`nil`).
  case on(ms: Int?)
  /// `DND off`.
  case off
  /// `DND toggle`: off when on, else on until turned off.
  case toggle
}

/// What the protocol promises about itself.
public enum ProtocolInfo {
  /// The protocol version `HELLO` reports.
  public static let version = 1
  /// The longest request line, not counting its terminator.
  public static let maxLineLength = 4096
}
