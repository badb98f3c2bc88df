import BadgeCore

/// How each command of a client reads its arguments: the `arguments` of its row in the command
/// table (`Request.Command`), handed the row for the usage its errors quote. The bridge's
/// commands read theirs in BridgeRequestParser.swift.
extension RequestParser {
  // MARK: - Without arguments

  enum HelloArguments: NoArguments { static var request: Request { .hello } }
  enum PingArguments: NoArguments { static var request: Request { .ping } }
  enum ListArguments: NoArguments { static var request: Request { .list } }
  enum UnwatchArguments: NoArguments { static var request: Request { .unwatch } }
  enum ReloadArguments: NoArguments { static var request: Request { .reload } }
  enum QuitArguments: NoArguments { static var request: Request { .quit } }
  enum ForwardsArguments: NoArguments { static var request: Request { .forwards } }

  // MARK: - Writes

  /// `INCR <channel> [n]`
  enum IncrArguments: ArgumentReader {
    static func read(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> Request {
      let name = try channel(&words, command)
      return .write(name, .incr(try optionalAmount(&words)))
    }
  }

  /// `DECR <channel> [n]`
  enum DecrArguments: ArgumentReader {
    static func read(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> Request {
      let name = try channel(&words, command)
      return .write(name, .decr(try optionalAmount(&words)))
    }
  }

  /// `SET <channel> <n>`, or a source's report `SET <channel> <n> new=<k> [unseen=<u>]`
  /// (`ChannelWrite.report`): `k` and `u` are counts, `unseen=` only with `new=`.
  enum SetArguments: ArgumentReader {
    static func read(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> Request {
      let name = try channel(&words, command)
      guard let word = words.next() else {
        throw ProtocolError(.badArguments, "Missing count; usage: \(command.usage)")
      }
      let n = try number(word, allowZero: true)
      var arrived: Int?
      var unseen: Int?
      while let word = words.nextPositional() {
        if let value = NamedWords.value(of: "new=", in: word), arrived == nil {
          arrived = try number(value, allowZero: true)
        } else if let value = NamedWords.value(of: "unseen=", in: word), unseen == nil {
          unseen = try number(value, allowZero: true)
        } else {
          throw ProtocolError(.badArguments, "Unexpected argument '\(quoted(word))'; usage: \(command.usage)")
        }
      }
      guard let arrived else {
        guard unseen == nil else {
          throw ProtocolError(.badArguments, "unseen= goes with new=, a source's report; usage: \(command.usage)")
        }
        return .write(name, .set(n))
      }
      return .write(name, .report(count: n, arrived: arrived, unseen: unseen))
    }
  }

  /// `CLEAR <channel>` (its `upto=` is a named word) or `CLEAR *`.
  enum ClearArguments: ArgumentReader {
    static func read(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> Request {
      guard let name = try channelOrAll(&words, command) else { return .clearAll }
      return .write(name, .clear(upTo: nil))
    }
  }

  /// `SEEN <channel>` (its `upto=` is a named word) or `SEEN *`.
  enum SeenArguments: ArgumentReader {
    static func read(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> Request {
      guard let name = try channelOrAll(&words, command) else { return .seenAll }
      return .write(name, .seen(upTo: nil))
    }
  }

  /// `MUTE <channel>`
  enum MuteArguments: ArgumentReader {
    static func read(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> Request {
      .write(try channel(&words, command), .mute)
    }
  }

  /// `UNMUTE <channel>`
  enum UnmuteArguments: ArgumentReader {
    static func read(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> Request {
      .write(try channel(&words, command), .unmute)
    }
  }

  /// `PULSE <channel> [ms]`: the window's length is 1 … the largest `pulse_ms`.
  enum PulseArguments: ArgumentReader {
    static func read(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> Request {
      let name = try channel(&words, command)
      guard let word = words.nextPositional() else { return .write(name, .pulse(ms: nil)) }
      guard let ms = DecimalParser.parse(word), ChannelWrite.pulseLengths.contains(ms) else {
        throw ProtocolError(
          .badNumber,
          "Invalid pulse length '\(quoted(word))'; expected milliseconds from 1 to \(Limits.pulseMs.upperBound)")
      }
      return .write(name, .pulse(ms: ms))
    }
  }

  /// `INCR`'s and `DECR`'s amount: 1 unless given.
  static func optionalAmount(_ words: inout Words) throws(ProtocolError) -> Int {
    guard let word = words.nextPositional() else { return 1 }
    return try number(word, allowZero: false)
  }

  /// A channel, or `nil` for `*` (every channel).
  static func channelOrAll(
    _ words: inout Words, _ command: Request.Command
  ) throws(ProtocolError) -> ChannelName? {
    guard let word = words.next() else {
      throw ProtocolError(.badArguments, "Missing channel; usage: \(command.usage)")
    }
    if word.count == 1 && word[0] == UInt8(ascii: "*") { return nil }
    return try name(word)
  }

  // MARK: - Reads and settings

  /// `GET <channel>`
  enum GetArguments: ArgumentReader {
    static func read(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> Request {
      .get(try channel(&words, command))
    }
  }

  /// `WATCH [since=<seq>] [<channel or glob> ...]`: `since=` only as the first word, its value
  /// a sequence number (digits only, at most `UInt64.max`), else the usage.
  enum WatchArguments: ArgumentReader {
    static func read(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> Request {
      guard let first = words.nextPositional() else { return .watch([]) }
      guard let value = NamedWords.value(of: "since=", in: first) else {
        return .watch(try patterns(&words, first: first))
      }
      guard let since = sequenceNumber(value) else {
        throw ProtocolError(
          .badArguments,
          "Invalid since '\(quoted(value))'; expected a sequence number, a whole number from 0; usage: \(command.usage)"
        )
      }
      return .watch(try patterns(&words), since: since)
    }

    /// Digits only, within `UInt64`.
    private static func sequenceNumber(_ word: UnsafeRawBufferPointer) -> UInt64? {
      guard !word.isEmpty, word.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
      return UInt64(String(decoding: word, as: UTF8.self))
    }
  }

  /// `STATS [period] [patterns]`: a first word that is a period word (in any case) is the
  /// period, else the period is `day` and the word is the first pattern. A first word that is
  /// neither is refused with the usage; a later bad pattern is a bad name, as in `WATCH`.
  enum StatsArguments: ArgumentReader {
    static func read(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> Request {
      guard let first = words.nextPositional() else { return .stats(.day, []) }
      let word = String(decoding: first, as: UTF8.self)
      if let period = StatsPeriod(rawValue: word.lowercased()) {
        return .stats(period, try patterns(&words))
      }
      guard ChannelPattern(bytes: Array(first)) != nil else {
        let periods = StatsPeriod.allCases.map(\.rawValue).joined(separator: ", ")
        throw ProtocolError(
          .badArguments,
          "'\(quoted(first))' is neither a period (\(periods)) nor a channel or pattern; usage: \(command.usage)")
      }
      return .stats(.day, try patterns(&words, first: first))
    }
  }

  /// `CONFIGURE <channel> <key>=<value|default> ...`
  enum ConfigureArguments: ArgumentReader {
    static func read(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> Request {
      let name = try channel(&words, command)
      var set = SettingsOverride.empty
      var reset: [SettingKey] = []
      while let word = words.nextPositional() { try setting(word, into: &set, reset: &reset) }
      guard !set.isEmpty || !reset.isEmpty else {
        throw ProtocolError(.badArguments, "Missing setting; usage: \(command.usage)")
      }
      return .configure(name, set: set, reset: reset)
    }
  }

  /// One `key=value` of `CONFIGURE`, in the config file's words; `key=default` resets the key.
  /// A key may be given more than once: the last word for it wins, so it ends up either set or
  /// reset, never both (the store applies resets after sets). The keys reset are kept in the
  /// settings' order, as the request's canonical form writes them.
  static func setting(
    _ word: UnsafeRawBufferPointer, into set: inout SettingsOverride, reset: inout [SettingKey]
  ) throws(ProtocolError) {
    try setting(String(decoding: word, as: UTF8.self), into: &set, reset: &reset)
  }

  /// `CONFIGURE`'s settings as a client has them, one `key=value` a word (`badgectl
  /// configure`): read as the daemon reads them, so a client refuses what the daemon would, in
  /// the daemon's words, and sends the request it would read.
  public static func settings(_ words: [String]) throws(ProtocolError) -> (set: SettingsOverride, reset: [SettingKey]) {
    var set = SettingsOverride.empty
    var reset: [SettingKey] = []
    for word in words { try setting(word, into: &set, reset: &reset) }
    return (set, reset)
  }

  private static func setting(
    _ text: String, into set: inout SettingsOverride, reset: inout [SettingKey]
  ) throws(ProtocolError) {
    guard let eq = text.firstIndex(of: "=") else {
      throw ProtocolError(.badSetting, "Expected key=value, got '\(quoted(text))'")
    }
    let keyText = String(text[..<eq])
    let value = String(text[text.index(after: eq)...])
    guard let key = SettingKey(rawValue: keyText) else {
      let keys = SettingKey.allCases.map(\.rawValue).joined(separator: ", ")
      throw ProtocolError(.badSetting, "Unknown setting '\(keyText)'; expected one of \(keys)")
    }
    if value == "default" {
      key.reset(in: &set)
      let resetBefore = reset
      reset = SettingKey.allCases.filter { $0 == key || resetBefore.contains($0) }
      return
    }
    do throws(SettingKey.InvalidValue) {
      try key.parse(value, into: &set)
    } catch {
      throw ProtocolError(.badSetting, "Invalid value '\(value)' for \(keyText): \(error.reason)")
    }
    reset.removeAll { $0 == key }
  }

  // MARK: - Do-not-disturb

  /// `DND`'s arguments: none, `on [<duration>]`, `off` or `toggle`, in any case; `on` and
  /// `off` also with `from=<host> at=<unix ms>`, another machine's change (`RemoteDND`).
  enum DNDArguments: ArgumentReader {
    static func read(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> Request {
      guard let word = words.nextPositional() else { return .dnd(.query) }
      var request: DNDRequest
      switch String(decoding: word, as: UTF8.self).lowercased() {
      case "off": request = .off
      case "toggle": request = .toggle
      case "on":
        request = .on(ms: nil)
        if let length = words.nextPositional() {
          guard !isRemoteWord(length) else { return try remoteDND(on: true, ms: nil, first: length, &words, command) }
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
        throw ProtocolError(.badArguments, "Unknown DND argument '\(quoted(word))'; usage: \(command.usage)")
      }
      guard let next = words.nextPositional() else { return .dnd(request) }
      switch request {
      case .on(let ms): return try remoteDND(on: true, ms: ms, first: next, &words, command)
      case .off: return try remoteDND(on: false, ms: nil, first: next, &words, command)
      default:
        throw ProtocolError(.badArguments, "Unexpected argument '\(quoted(next))'; usage: \(command.usage)")
      }
    }
  }
}

/// A command without arguments: its request, whatever follows it (a word after it is refused as
/// unexpected, with the usage, as any word left over).
protocol NoArguments: ArgumentReader {
  static var request: Request { get }
}

extension NoArguments {
  static func read(_ words: inout Words, _ command: Request.Command) -> Request { request }
}
