import BadgeCore

extension Request {
  /// One row of the command table: a command word, its usage line, what it takes and who may
  /// send it, and how its arguments are read.
  ///
  /// Everything the protocol knows of a command but its meaning is here, and everything that
  /// asks reads the row: the parser finds the row by the word and reads the arguments with it;
  /// errors quote its usage; `upto=` and `id=` are taken or refused by its flags; the encoder
  /// writes its word. So a command is its row, its `Request` case (which names its row in
  /// `command` and is written by `RequestEncoder`) and its execution (`CommandExecutor`), as a
  /// redis command is a row of `commands.def` and its proc.
  ///
  /// Some words have forms with other rights than the word's (`CLEAR *` takes no `upto=`, `DND`
  /// alone asks and takes no id, `BRIDGE status` is the bridge's alone): each such form is a
  /// row of its own (`form`), with the word and usage of its word's row, which reads it.
  ///
  /// A row holds no reference (its texts are static, its reader a type), so it is copied as
  /// plain bytes: finding a row and reading with it is on the path of every request.
  public struct Command: Sendable {
    /// The command word, in upper case: what the encoder writes (a client may send it in any
    /// case).
    public let word: StaticString
    /// The usage line, as errors and docs/PROTOCOL.md quote it.
    let usageLine: StaticString
    public let flags: Flags
    /// Reads the words after the command word into its request (a form of the word, maybe);
    /// `nil` for a form's row, which is never looked up by its word.
    let arguments: Arguments?
    /// Why this form refuses `upto=`, when it says more than that the word takes none.
    let upToRefusal: StaticString?

    /// How a command reads its arguments (`ArgumentReader`): a type, so that the row holds no
    /// reference and is copied as plain bytes.
    typealias Arguments = any ArgumentReader.Type

    init(_ word: StaticString, _ usage: StaticString, _ flags: Flags, _ arguments: Arguments) {
      self.word = word
      usageLine = usage
      self.flags = flags
      self.arguments = arguments
      upToRefusal = nil
    }

    private init(formOf command: Command, _ flags: Flags, upToRefusal: StaticString?) {
      assert(command.flags.contains(.hasForms), "a form of a word whose row says it has forms")
      word = command.word
      usageLine = command.usageLine
      self.flags = flags
      arguments = nil
      self.upToRefusal = upToRefusal
    }

    /// A form of this command with rights of its own.
    func form(_ flags: Flags, upToRefusal: StaticString? = nil) -> Command {
      Command(formOf: self, flags, upToRefusal: upToRefusal)
    }

    /// The usage line, as errors and docs/PROTOCOL.md quote it.
    public var usage: String { usageLine.description }

    /// What a request may carry and who may send it.
    public struct Flags: OptionSet, Sendable {
      public let rawValue: UInt8
      public init(rawValue: UInt8) { self.rawValue = rawValue }

      /// It changes what is saved (a channel, or do-not-disturb), so carried out twice it could
      /// count twice: it may carry an id (`id=<token>`), which makes a retry count once.
      public static let takesID = Flags(rawValue: 1 << 0)
      /// It takes `upto=<total>`: a clear or sight of one channel up to a running total.
      public static let takesUpTo = Flags(rawValue: 1 << 1)
      /// Only the bridge's connection (`BRIDGE host=<host>`) may send it.
      public static let bridgeOnly = Flags(rawValue: 1 << 2)
      /// The word has forms with rights of their own (`form`): what a request of it takes is
      /// its form's row's (`Request.command`); a word without forms is its requests' row.
      public static let hasForms = Flags(rawValue: 1 << 3)
      /// Only the sources connection (`SOURCES attach`) may send it.
      public static let sourcesOnly = Flags(rawValue: 1 << 4)
    }
  }
}

/// How a command reads the words after its command word into its request: a type for each
/// command word (RequestArguments.swift, BridgeRequestParser.swift), named in its row.
protocol ArgumentReader: Sendable {
  /// Reads `words` into the request; `command` is the row, whose usage the errors quote.
  static func read(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> Request
}

// MARK: - The rows

extension Request.Command {
  public static let hello = Request.Command("HELLO", "HELLO", [], RequestParser.HelloArguments.self)
  public static let ping = Request.Command("PING", "PING", [], RequestParser.PingArguments.self)
  public static let incr = Request.Command("INCR", "INCR <channel> [n]", .takesID, RequestParser.IncrArguments.self)
  public static let decr = Request.Command("DECR", "DECR <channel> [n]", .takesID, RequestParser.DecrArguments.self)
  public static let set = Request.Command("SET", "SET <channel> <n>", .takesID, RequestParser.SetArguments.self)
  public static let clear = Request.Command(
    "CLEAR", "CLEAR <channel> [upto=<total>] | CLEAR *", [.takesID, .takesUpTo, .hasForms],
    RequestParser.ClearArguments.self)
  /// `CLEAR *`: each channel has a total of its own, so no `upto=`.
  public static let clearAll = clear.form(.takesID, upToRefusal: everyChannelsTotal)
  public static let get = Request.Command("GET", "GET <channel>", [], RequestParser.GetArguments.self)
  public static let list = Request.Command("LIST", "LIST", [], RequestParser.ListArguments.self)
  public static let mute = Request.Command("MUTE", "MUTE <channel>", .takesID, RequestParser.MuteArguments.self)
  public static let unmute = Request.Command("UNMUTE", "UNMUTE <channel>", .takesID, RequestParser.UnmuteArguments.self)
  public static let configure = Request.Command(
    "CONFIGURE", "CONFIGURE <channel> <key>=<value|default> ...", .takesID, RequestParser.ConfigureArguments.self)
  public static let watch = Request.Command(
    "WATCH", "WATCH [since=<seq>] [<channel or glob> ...]", [], RequestParser.WatchArguments.self)
  public static let unwatch = Request.Command("UNWATCH", "UNWATCH", [], RequestParser.UnwatchArguments.self)
  public static let reload = Request.Command("RELOAD", "RELOAD", [], RequestParser.ReloadArguments.self)
  public static let quit = Request.Command("QUIT", "QUIT", [], RequestParser.QuitArguments.self)
  public static let stats = Request.Command(
    "STATS", "STATS [day|week|month|year] [<channel or glob> ...]", [], RequestParser.StatsArguments.self)
  public static let seen = Request.Command(
    "SEEN", "SEEN <channel> [upto=<total>] | SEEN *", [.takesID, .takesUpTo, .hasForms],
    RequestParser.SeenArguments.self)
  /// `SEEN *`: each channel has a total of its own, so no `upto=`.
  public static let seenAll = seen.form(.takesID, upToRefusal: everyChannelsTotal)
  /// `PULSE` changes nothing that is saved: no id.
  public static let pulse = Request.Command("PULSE", "PULSE <channel> [ms]", [], RequestParser.PulseArguments.self)
  /// `DND on|off|toggle`: a change of do-not-disturb.
  public static let dnd = Request.Command(
    "DND", "DND [on [<duration>] | off | toggle]", [.takesID, .hasForms], RequestParser.DNDArguments.self)
  /// `DND` alone asks for the state and changes nothing: no id.
  public static let dndQuery = dnd.form([])
  /// `DND on|off … from=<host> at=<unix ms>`: another machine's change, the bridge's to send;
  /// its stamp, not an id, makes it count once.
  public static let remoteDND = dnd.form(.bridgeOnly)
  public static let bridge = Request.Command(
    "BRIDGE", "BRIDGE [host=<host> | status connected=<0|1> broker=<url> pending=<n> error=<text>]", .hasForms,
    RequestParser.BridgeArguments.self)
  /// `BRIDGE status …`: the bridge's report of its own state.
  public static let bridgeStatus = bridge.form(.bridgeOnly)
  public static let mirror = Request.Command(
    "MIRROR",
    """
    MIRROR <channel> owner=<host> count=<n> [unseen=<n>] [total=<n>] [muted=<0|1>] [dot=<0|1>] [label=<text>] \
    [pulse=<ms>] [oseq=<n>] | MIRROR <channel> forget
    """,
    .bridgeOnly, RequestParser.MirrorArguments.self)
  public static let stale = Request.Command(
    "STALE", "STALE <host> <0|1> [since=<unix seconds>]", .bridgeOnly, RequestParser.StaleArguments.self)
  public static let forwards = Request.Command(
    "FORWARDS", "FORWARDS", .bridgeOnly, RequestParser.ForwardsArguments.self)
  public static let delivered = Request.Command(
    "DELIVERED", "DELIVERED <id>", .bridgeOnly, RequestParser.DeliveredArguments.self)

  public static let sources = Request.Command(
    "SOURCES", "SOURCES [attach | config ok | config error=<text>]", .hasForms, RequestParser.SourcesArguments.self)
  /// `SOURCES config …`: the sources program's report of its config.
  public static let sourcesConfig = sources.form(.sourcesOnly)
  public static let source = Request.Command(
    "SOURCE",
    """
    SOURCE <name> claim <channel> on_clear=<seen|mark-read> | SOURCE <name> release <channel> | \
    SOURCE <name> status kind=<kind> state=<waiting|ok|recounting|error|retrying> channels=<n> count=<n> \
    [changed=<unix ms>] [retry_at=<unix ms>] [error=<text>] | SOURCE <name> stopped
    """,
    .sourcesOnly, RequestParser.SourceArguments.self)

  /// Every command word's row, as docs/PROTOCOL.md lists them.
  public static let all: [Request.Command] = [
    hello, ping, incr, decr, set, clear, get, list, mute, unmute, configure, watch, unwatch, reload, quit, stats,
    seen, pulse, dnd, bridge, mirror, stale, forwards, delivered, sources, source,
  ]

  private static let everyChannelsTotal: StaticString = "upto= takes one channel, not *: each channel has its own total"
}

// MARK: - A request's row

extension Request {
  /// The row of the command table this request is a form of.
  public var command: Command {
    // A write first, the request nearly every line is: one check of the case.
    if case .write(_, let write) = self { return write.command }
    switch self {
    case .hello: return .hello
    case .ping: return .ping
    case .write(_, let write): return write.command
    case .clearAll: return .clearAll
    case .get: return .get
    case .list: return .list
    case .seenAll: return .seenAll
    case .dnd(.query): return .dndQuery
    case .dnd: return .dnd
    case .configure: return .configure
    case .watch: return .watch
    case .unwatch: return .unwatch
    case .stats: return .stats
    case .reload: return .reload
    case .quit: return .quit
    case .bridge(.status): return .bridgeStatus
    case .bridge: return .bridge
    case .mirror, .forgetMirror: return .mirror
    case .stale: return .stale
    case .forwards: return .forwards
    case .delivered: return .delivered
    case .remoteDND: return .remoteDND
    case .sources(.config): return .sourcesConfig
    case .sources: return .sources
    case .source: return .source
    }
  }

  /// The request with `upto=<total>`, for a form whose row takes it (`takesUpTo`): a clear or a
  /// sight of one channel up to that running total.
  func reaching(_ total: Int) -> Request {
    switch self {
    case .write(let name, .clear): return .write(name, .clear(upTo: total))
    case .write(let name, .seen): return .write(name, .seen(upTo: total))
    default: preconditionFailure("\(command.word) takes no upto=")
    }
  }

  /// Whether the request may carry an id (`id=<token>`): its row's `takesID`.
  public var takesID: Bool { command.flags.contains(.takesID) }

  /// Whether only the bridge's connection may send it: its row's `bridgeOnly`.
  public var isBridgeOnly: Bool { command.flags.contains(.bridgeOnly) }

  /// Whether only the sources connection may send it: its row's `sourcesOnly`.
  public var isSourcesOnly: Bool { command.flags.contains(.sourcesOnly) }
}

extension ChannelWrite {
  /// The row of the command table of this write's command.
  public var command: Request.Command {
    switch self {
    case .incr: return .incr
    case .decr: return .decr
    case .set, .report: return .set
    case .clear: return .clear
    case .seen: return .seen
    case .mute: return .mute
    case .unmute: return .unmute
    case .pulse: return .pulse
    }
  }
}

// MARK: - Finding a row by its word

extension Request.Command {
  /// The row whose word `word` is, compared without regard to case: the hot commands are tried
  /// first.
  @inline(__always)
  static func named(_ word: UnsafeRawBufferPointer) -> Request.Command? {
    for command in lookupOrder where command.word.utf8CodeUnitCount == word.count {
      let bytes = command.word.utf8Start
      var same = true
      for i in 0..<word.count where bytes[i] != (word[i] & 0xDF) {
        same = false
        break
      }
      if same { return command }
    }
    return nil
  }

  /// The rows in the order `named` tries them: the writes clients send most first.
  private static let lookupOrder: [Request.Command] = {
    let hot = [incr, decr, set, get, clear]
    return hot + all.filter { command in !hot.contains { $0.word.utf8Start == command.word.utf8Start } }
  }()
}
