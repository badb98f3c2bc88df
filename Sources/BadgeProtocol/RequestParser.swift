import BadgeCore

/// Parses one request line (without its terminator) into a `RequestLine`: the request and its
/// id.
///
/// Works on the bytes as read: words are slices of the line, and the common requests
/// (`INCR mail`) are parsed without allocating. The named words `id=<token>` and
/// `upto=<total>` follow the positional arguments, in any order: an optional positional
/// argument is never a named word (`Words.nextPositional`), and the words left after the
/// positional ones must all be named, so a line without them pays nothing for them.
public enum RequestParser {
  /// The request in `line` with its id, `nil` for a line with no words (ignored, gets no
  /// reply), or the error to reply with.
  public static func parse(_ line: UnsafeRawBufferPointer) -> Result<RequestLine, ProtocolError>? {
    var id: RequestID?
    return parse(line, id: &id).map { $0.map { RequestLine($0, id: id) } }
  }

  /// The request in `line`, with its id put in `id` (left `nil` without one): the server's
  /// form, which moves no `RequestLine` around for the many requests without an id.
  public static func parse(_ line: UnsafeRawBufferPointer, id: inout RequestID?) -> Result<Request, ProtocolError>? {
    if !isASCII(line) {
      guard String(validating: line, as: UTF8.self) != nil else {
        return .failure(ProtocolError(.badUTF8, "The request is not valid UTF-8"))
      }
    }
    var words = Words(line)
    guard let first = words.next() else { return nil }
    guard let command = command(first) else {
      return .failure(ProtocolError(.unknownCommand, "Unknown command '\(quoted(first))'"))
    }
    do throws(ProtocolError) {
      let request = try parseArguments(command, &words)
      guard var extra = words.next() else { return .success(request) }
      // Every word left is a named one.
      var named = NamedWords()
      while true {
        guard named.take(extra) else {
          throw ProtocolError(
            .badArguments, "Unexpected argument '\(quoted(extra))'; usage: \(usage(command))")
        }
        guard let next = words.next() else { break }
        extra = next
      }
      let line = try self.named(named, request, command)
      id = line.id
      return .success(line.request)
    } catch {
      return .failure(error)
    }
  }

  /// The usage line of a command, for error messages and docs.
  public static func usage(_ command: Request.Command) -> String {
    switch command {
    case .hello: return "HELLO"
    case .ping: return "PING"
    case .incr: return "INCR <channel> [n]"
    case .decr: return "DECR <channel> [n]"
    case .set: return "SET <channel> <n>"
    case .clear: return "CLEAR <channel> [upto=<total>] | CLEAR *"
    case .get: return "GET <channel>"
    case .list: return "LIST"
    case .mute: return "MUTE <channel>"
    case .unmute: return "UNMUTE <channel>"
    case .configure: return "CONFIGURE <channel> <key>=<value|default> ..."
    case .watch: return "WATCH [<channel or glob> ...]"
    case .stats: return "STATS [day|week|month|year] [<channel or glob> ...]"
    case .unwatch: return "UNWATCH"
    case .reload: return "RELOAD"
    case .quit: return "QUIT"
    case .seen: return "SEEN <channel> [upto=<total>] | SEEN *"
    case .pulse: return "PULSE <channel> [ms]"
    case .dnd: return "DND [on [<duration>] | off | toggle]"
    case .bridge: return "BRIDGE [host=<host> | status connected=<0|1> broker=<url> pending=<n> error=<text>]"
    case .mirror:
      return
        "MIRROR <channel> owner=<host> count=<n> [unseen=<n>] [total=<n>] [muted=<0|1>] [dot=<0|1>] [label=<text>] [pulse=<ms>] [oseq=<n>] | MIRROR <channel> forget"
    case .stale: return "STALE <host> <0|1> [since=<unix seconds>]"
    case .forwards: return "FORWARDS"
    case .delivered: return "DELIVERED <id>"
    }
  }

  private static func parseArguments(
    _ command: Request.Command, _ words: inout Words
  ) throws(ProtocolError) -> Request {
    switch command {
    case .incr:
      let name = try channel(&words, command)
      return .write(name, .incr(try optionalAmount(&words)))
    case .decr:
      let name = try channel(&words, command)
      return .write(name, .decr(try optionalAmount(&words)))
    case .set:
      let name = try channel(&words, command)
      guard let word = words.next() else {
        throw ProtocolError(.badArguments, "Missing count; usage: \(usage(command))")
      }
      return .write(name, .set(try number(word, allowZero: true)))
    case .clear:
      guard let word = words.next() else {
        throw ProtocolError(.badArguments, "Missing channel; usage: \(usage(command))")
      }
      if word.count == 1 && word[0] == UInt8(ascii: "*") { return .clearAll }
      return .write(try name(word), .clear(upTo: nil))
    case .seen:
      guard let word = words.next() else {
        throw ProtocolError(.badArguments, "Missing channel; usage: \(usage(command))")
      }
      if word.count == 1 && word[0] == UInt8(ascii: "*") { return .seenAll }
      return .write(try name(word), .seen(upTo: nil))
    case .pulse:
      let name = try channel(&words, command)
      guard let word = words.nextPositional() else { return .write(name, .pulse(ms: nil)) }
      return .write(name, .pulse(ms: try pulseLength(word)))
    case .dnd:
      return try dnd(&words)
    case .bridge: return .bridge(try bridge(&words))
    case .mirror: return try mirror(&words)
    case .stale: return try stale(&words)
    case .forwards: return .forwards
    case .delivered: return try delivered(&words)
    case .get: return .get(try channel(&words, command))
    case .mute: return .write(try channel(&words, command), .mute)
    case .unmute: return .write(try channel(&words, command), .unmute)
    case .configure:
      let name = try channel(&words, command)
      var set = SettingsOverride.empty
      var reset: [SettingKey] = []
      while let word = words.nextPositional() { try setting(word, into: &set, reset: &reset) }
      guard !set.isEmpty || !reset.isEmpty else {
        throw ProtocolError(.badArguments, "Missing setting; usage: \(usage(command))")
      }
      return .configure(name, set: set, reset: reset)
    case .watch:
      return .watch(try patterns(&words))
    case .stats:
      return try stats(&words)
    case .hello: return .hello
    case .ping: return .ping
    case .list: return .list
    case .unwatch: return .unwatch
    case .reload: return .reload
    case .quit: return .quit
    }
  }

  static let namingRule = ChannelName.namingRule

  /// The rest of the line as channel names or globs.
  private static func patterns(_ words: inout Words, first: UnsafeRawBufferPointer? = nil) throws(ProtocolError)
    -> [ChannelPattern]
  {
    var patterns: [ChannelPattern] = []
    var next = first ?? words.nextPositional()
    while let word = next {
      guard let pattern = ChannelPattern(bytes: Array(word)) else {
        throw ProtocolError(.badName, "Invalid channel or pattern '\(quoted(word))'; \(namingRule), or * and ?")
      }
      patterns.append(pattern)
      next = words.nextPositional()
    }
    return patterns
  }

  /// `STATS [period] [patterns]`: a first word that is a period word (in any case) is the
  /// period, else the period is `day` and the word is the first pattern. A first word that is
  /// neither is refused with the usage; a later bad pattern is a bad name, as in `WATCH`.
  private static func stats(_ words: inout Words) throws(ProtocolError) -> Request {
    guard let first = words.nextPositional() else { return .stats(.day, []) }
    let word = String(decoding: first, as: UTF8.self)
    if let period = StatsPeriod(rawValue: word.lowercased()) {
      return .stats(period, try patterns(&words))
    }
    guard ChannelPattern(bytes: Array(first)) != nil else {
      let periods = StatsPeriod.allCases.map(\.rawValue).joined(separator: ", ")
      throw ProtocolError(
        .badArguments,
        "'\(quoted(first))' is neither a period (\(periods)) nor a channel or pattern; usage: \(usage(.stats))")
    }
    return .stats(.day, try patterns(&words, first: first))
  }

  private static func channel(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> ChannelName {
    guard let word = words.next() else {
      throw ProtocolError(.badArguments, "Missing channel; usage: \(usage(command))")
    }
    return try name(word)
  }

  private static func name(_ word: UnsafeRawBufferPointer) throws(ProtocolError) -> ChannelName {
    guard let name = ChannelName(bytes: word) else {
      throw ProtocolError(.badName, "Invalid channel name '\(quoted(word))'; \(namingRule)")
    }
    return name
  }

  private static func optionalAmount(_ words: inout Words) throws(ProtocolError) -> Int {
    guard let word = words.nextPositional() else { return 1 }
    return try number(word, allowZero: false)
  }

  /// A count or amount: digits only, within 0 (or 1) … `Limits.maxCount`.
  private static func number(_ word: UnsafeRawBufferPointer, allowZero: Bool) throws(ProtocolError) -> Int {
    let wanted =
      allowZero ? "a whole number from 0 to \(Limits.maxCount)" : "a whole number from 1 to \(Limits.maxCount)"
    guard let value = DecimalParser.parse(word) else {
      if !word.isEmpty && word.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
        throw ProtocolError(.outOfRange, "'\(quoted(word))' is over the largest count, \(Limits.maxCount)")
      }
      throw ProtocolError(.badNumber, "Invalid number '\(quoted(word))'; expected \(wanted)")
    }
    if value > Limits.maxCount {
      throw ProtocolError(.outOfRange, "'\(quoted(word))' is over the largest count, \(Limits.maxCount)")
    }
    if value == 0 && !allowZero {
      throw ProtocolError(.badNumber, "Invalid number '\(quoted(word))'; expected \(wanted)")
    }
    return value
  }

  /// `PULSE`'s window length: 1 … the largest `pulse_ms`, in milliseconds.
  private static func pulseLength(_ word: UnsafeRawBufferPointer) throws(ProtocolError) -> Int {
    guard let value = DecimalParser.parse(word), Limits.pulseMs.contains(value), value > 0 else {
      throw ProtocolError(
        .badNumber,
        "Invalid pulse length '\(quoted(word))'; expected milliseconds from 1 to \(Limits.pulseMs.upperBound)")
    }
    return value
  }

  /// `DND`'s arguments: none, `on [<duration>]`, `off` or `toggle`, in any case; `on` and
  /// `off` also with `from=<host> at=<unix ms>`, another machine's change (`RemoteDND`).
  private static func dnd(_ words: inout Words) throws(ProtocolError) -> Request {
    guard let word = words.nextPositional() else { return .dnd(.query) }
    var request: DNDRequest
    switch String(decoding: word, as: UTF8.self).lowercased() {
    case "off": request = .off
    case "toggle": request = .toggle
    case "on":
      request = .on(ms: nil)
      if let length = words.nextPositional() {
        guard !isRemoteWord(length) else { return try remoteDND(on: true, ms: nil, first: length, &words) }
        let text = String(decoding: length, as: UTF8.self)
        guard let ms = DurationParser.milliseconds(text) else {
          throw ProtocolError(
            .badNumber,
            "Invalid duration '\(quoted(length))'; expected a whole number and a unit: 1500ms, 90s, 30m or 2h")
        }
        guard Limits.dndMs.contains(ms) else {
          throw ProtocolError(
            .outOfRange,
            "The duration '\(quoted(length))' is over the longest, \(Limits.dndMs.upperBound / 86_400_000) days")
        }
        request = .on(ms: ms)
      }
    default:
      throw ProtocolError(
        .badArguments, "Unknown DND argument '\(quoted(word))'; usage: \(usage(.dnd))")
    }
    guard let next = words.nextPositional() else { return .dnd(request) }
    switch request {
    case .on(let ms): return try remoteDND(on: true, ms: ms, first: next, &words)
    case .off: return try remoteDND(on: false, ms: nil, first: next, &words)
    default:
      throw ProtocolError(.badArguments, "Unexpected argument '\(quoted(next))'; usage: \(usage(.dnd))")
    }
  }

  private static func setting(
    _ word: UnsafeRawBufferPointer, into set: inout SettingsOverride, reset: inout [SettingKey]
  ) throws(ProtocolError) {
    let text = String(decoding: word, as: UTF8.self)
    guard let eq = text.firstIndex(of: "=") else {
      throw ProtocolError(.badSetting, "Expected key=value, got '\(quoted(word))'")
    }
    let keyText = String(text[..<eq])
    let value = String(text[text.index(after: eq)...])
    guard let key = SettingKey(rawValue: keyText) else {
      let keys = SettingKey.allCases.map(\.rawValue).joined(separator: ", ")
      throw ProtocolError(.badSetting, "Unknown setting '\(keyText)'; expected one of \(keys)")
    }
    // A key may be given more than once; the last word for it wins, so it ends up either set
    // or reset, never both (the store applies resets after sets).
    if value == "default" {
      key.reset(in: &set)
      if !reset.contains(key) { reset.append(key) }
      return
    }
    do throws(SettingKey.InvalidValue) {
      try key.parse(value, into: &set)
    } catch {
      throw ProtocolError(.badSetting, "Invalid value '\(value)' for \(keyText): \(error.reason)")
    }
    reset.removeAll { $0 == key }
  }

  // MARK: - Bytes

  /// The command a word names, compared without regard to case.
  @inline(__always)
  static func command(_ word: UnsafeRawBufferPointer) -> Request.Command? {
    for (bytes, command) in commandTable where bytes.count == word.count {
      var same = true
      for i in 0..<bytes.count where bytes[i] != (word[i] & 0xDF) {
        same = false
        break
      }
      if same { return command }
    }
    return nil
  }

  /// Upper-case command words in the order they are tried: the hot ones first.
  private static let commandTable: [([UInt8], Request.Command)] = {
    let order: [Request.Command] =
      [.incr, .decr, .set, .get, .clear]
      + Request.Command.allCases.filter { ![.incr, .decr, .set, .get, .clear].contains($0) }
    return order.map { (Array($0.rawValue.utf8), $0) }
  }()

  @inline(__always)
  private static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
    for byte in bytes where byte >= 0x80 { return false }
    return true
  }

  /// User input for a message: decoded, and cut at 64 characters.
  static func quoted(_ word: UnsafeRawBufferPointer) -> String {
    let text = String(decoding: word, as: UTF8.self)
    return text.count > 64 ? String(text.prefix(64)) + "…" : text
  }
}

/// The words of a line: runs of bytes between spaces or tabs.
struct Words {
  private let line: UnsafeRawBufferPointer
  private var position = 0

  init(_ line: UnsafeRawBufferPointer) { self.line = line }

  @inline(__always)
  mutating func next() -> UnsafeRawBufferPointer? {
    while position < line.count, line[position] == 0x20 || line[position] == 0x09 { position += 1 }
    guard position < line.count else { return nil }
    let start = position
    while position < line.count, line[position] != 0x20, line[position] != 0x09 { position += 1 }
    return UnsafeRawBufferPointer(rebasing: line[start..<position])
  }

  /// The rest of the line as it is, from where the last word ended (the blanks between
  /// included), without trailing blanks: a text that may hold spaces, last on its line. The
  /// words are used up.
  mutating func rest() -> String {
    var end = line.count
    while end > position, line[end - 1] == 0x20 || line[end - 1] == 0x09 { end -= 1 }
    defer { position = line.count }
    guard position < end else { return "" }
    return String(decoding: UnsafeRawBufferPointer(rebasing: line[position..<end]), as: UTF8.self)
  }

  /// The next word when it is an optional positional argument, `nil` (leaving it) when it is a
  /// named word or there is none: the named words follow the positional ones.
  @inline(__always)
  mutating func nextPositional() -> UnsafeRawBufferPointer? {
    let before = position
    guard let word = next() else { return nil }
    guard !NamedWords.isNamed(word) else {
      position = before
      return nil
    }
    return word
  }
}
