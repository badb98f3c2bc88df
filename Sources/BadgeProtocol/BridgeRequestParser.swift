import BadgeCore

/// The requests of the bridge to other machines (`BRIDGE`, `MIRROR`, `STALE`, `DELIVERED`, and
/// `DND … from= at=`): their `key=value` words, and every way they are refused.
extension RequestParser {
  /// `BRIDGE`, `BRIDGE host=<host>` or `BRIDGE status connected= broker= pending= error=`; the
  /// error text is the rest of the line, spaces and all.
  enum BridgeArguments: ArgumentReader {
    static func read(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> Request {
      .bridge(try bridgeRequest(&words, command))
    }
  }

  private static func bridgeRequest(
    _ words: inout Words, _ command: Request.Command
  ) throws(ProtocolError) -> BridgeRequest {
    guard let first = words.next() else { return .query }
    if let host = value(of: "host=", in: first) {
      if let extra = words.next() { throw unexpected(extra, command) }
      return .attach(host: try RequestParser.host(host))
    }
    guard String(decoding: first, as: UTF8.self).lowercased() == "status" else { throw unexpected(first, command) }
    var status = BridgeStatus(connected: false)
    var seen: Set<String> = []
    while let word = words.next() {
      let (key, value) = try pair(word, command)
      guard seen.insert(key).inserted else { throw given(twice: key, command) }
      switch key {
      case "connected": status.connected = try flag(value, key)
      case "broker": status.broker = String(decoding: value, as: UTF8.self)
      case "pending": status.pending = try count(value, key)
      case "error":
        // The rest of the line, spaces and all, but for what ends it: a CR there would not
        // survive the line's own end (a CR before the LF is not part of the line), so an error
        // is kept as a line can carry it, and written back as it was read.
        status.error = restOfLine(value, &words)
        return .status(status)
      default: throw unexpected(word, command)
      }
    }
    guard seen.contains("connected") else {
      throw ProtocolError(.badArguments, "Missing connected=; usage: \(command.usage)")
    }
    return .status(status)
  }

  /// `MIRROR <channel> forget`, or `MIRROR <channel>` with the owner's state: `owner=` and
  /// `count=` are required; `unseen=` (default: the count), `total=` (default: the count),
  /// `muted=`, `dot=`, `pulse=`, `oseq=` optional; `label=` is taken and kept with the state,
  /// not shown (the label is drawn here from the count and the local display settings).
  enum MirrorArguments: ArgumentReader {
    static func read(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> Request {
      guard let nameWord = words.next() else {
        throw ProtocolError(.badArguments, "Missing channel; usage: \(command.usage)")
      }
      let name = try RequestParser.name(nameWord)
      guard let first = words.next() else {
        throw ProtocolError(.badArguments, "Missing owner= and count=; usage: \(command.usage)")
      }
      if String(decoding: first, as: UTF8.self) == "forget" {
        if let extra = words.next() { throw unexpected(extra, command) }
        return .forgetMirror(name)
      }
      var fields: [String: UnsafeRawBufferPointer] = [:]
      var next: UnsafeRawBufferPointer? = first
      while let word = next {
        let (key, value) = try pair(word, command)
        guard ["owner", "count", "unseen", "total", "muted", "dot", "label", "pulse", "oseq"].contains(key) else {
          throw unexpected(word, command)
        }
        guard fields.updateValue(value, forKey: key) == nil else { throw given(twice: key, command) }
        next = words.next()
      }
      guard let owner = fields["owner"], let countWord = fields["count"] else {
        throw ProtocolError(.badArguments, "Missing owner= or count=; usage: \(command.usage)")
      }
      let count = try RequestParser.count(countWord, "count")
      let unseen =
        try fields["unseen"].map { word throws(ProtocolError) in try RequestParser.count(word, "unseen") } ?? count
      guard unseen <= count else {
        throw ProtocolError(.badNumber, "unseen=\(unseen) is above count=\(count)")
      }
      let total = try fields["total"].map { word throws(ProtocolError) in try big(word, "total") } ?? count
      guard total >= count else {
        throw ProtocolError(.badNumber, "total=\(total) is below count=\(count)")
      }
      guard total <= Limits.maxTotal else {
        throw ProtocolError(
          .outOfRange, "total=\(total) is over the largest total an owner reaches, \(Limits.maxTotal)")
      }
      let pulse = try fields["pulse"].map { word throws(ProtocolError) in try big(word, "pulse") } ?? 0
      guard pulse <= Limits.pulseMs.upperBound else {
        throw ProtocolError(.badNumber, "pulse=\(pulse) is over the longest window, \(Limits.pulseMs.upperBound) ms")
      }
      let update = MirrorUpdate(
        owner: try host(owner), count: count, unseen: unseen, total: total,
        muted: try fields["muted"].map { word throws(ProtocolError) in try flag(word, "muted") } ?? false,
        dot: try fields["dot"].map { word throws(ProtocolError) in try flag(word, "dot") } ?? false,
        pulseMs: pulse,
        ownerSeq: UInt64(try fields["oseq"].map { word throws(ProtocolError) in try big(word, "oseq") } ?? 0),
        label: fields["label"].map { String(decoding: $0, as: UTF8.self) } ?? "")
      return .mirror(name, update)
    }
  }

  /// `STALE <host> <0|1> [since=<unix seconds>]`.
  enum StaleArguments: ArgumentReader {
    static func read(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> Request {
      guard let hostWord = words.next(), let flagWord = words.next() else {
        throw ProtocolError(.badArguments, "Missing host or 0|1; usage: \(command.usage)")
      }
      let host = try RequestParser.host(hostWord)
      let stale = try flag(flagWord, "the staleness")
      var since: Int?
      if let word = words.next() {
        guard let value = value(of: "since=", in: word) else { throw unexpected(word, command) }
        since = try big(value, "since")
        if let extra = words.next() { throw unexpected(extra, command) }
      }
      return .stale(host: host, stale: stale, since: since)
    }
  }

  /// `DELIVERED <id>`: a forwarded write's id.
  enum DeliveredArguments: ArgumentReader {
    static func read(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> Request {
      guard let word = words.next() else {
        throw ProtocolError(.badArguments, "Missing id; usage: \(command.usage)")
      }
      guard RequestID.isValidToken(word) else {
        throw ProtocolError(.badArguments, "Invalid id '\(quoted(word))'; \(RequestID.tokenRule)")
      }
      if let extra = words.next() { throw unexpected(extra, command) }
      return .delivered(String(decoding: word, as: UTF8.self))
    }
  }

  /// Whether a `DND` word is one of another machine's change (`from=`, `at=`).
  static func isRemoteWord(_ word: UnsafeRawBufferPointer) -> Bool {
    value(of: "from=", in: word) != nil || value(of: "at=", in: word) != nil
  }

  /// The rest of `DND on|off …` from another machine: `from=<host> at=<unix ms>`, both once.
  static func remoteDND(
    on: Bool, ms: Int?, first: UnsafeRawBufferPointer, _ words: inout Words, _ command: Request.Command
  ) throws(ProtocolError) -> Request {
    var from: String?
    var at: UInt64?
    var next: UnsafeRawBufferPointer? = first
    while let word = next {
      if let value = value(of: "from=", in: word) {
        guard from == nil else { throw given(twice: "from", command) }
        from = try host(value)
      } else if let value = value(of: "at=", in: word) {
        guard at == nil else { throw given(twice: "at", command) }
        at = UInt64(try big(value, "at"))
      } else {
        throw unexpected(word, command)
      }
      next = words.nextPositional()
    }
    guard let from, let at else {
      throw ProtocolError(.badArguments, "Another machine's DND needs both from=<host> and at=<unix ms>")
    }
    return .remoteDND(RemoteDND(on: on, ms: ms, from: from, at: at))
  }

  // MARK: - Words

  private static func pair(
    _ word: UnsafeRawBufferPointer, _ command: Request.Command
  ) throws(ProtocolError) -> (String, UnsafeRawBufferPointer) {
    guard let eq = word.firstIndex(of: UInt8(ascii: "=")) else { throw unexpected(word, command) }
    return (
      String(decoding: UnsafeRawBufferPointer(rebasing: word[..<eq]), as: UTF8.self),
      UnsafeRawBufferPointer(rebasing: word[(eq + 1)...])
    )
  }

  private static func value(of name: String, in word: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
    let prefix = Array(name.utf8)
    guard word.count >= prefix.count, word.starts(with: prefix) else { return nil }
    return UnsafeRawBufferPointer(rebasing: word[prefix.count...])
  }

  static func unexpected(_ word: UnsafeRawBufferPointer, _ command: Request.Command) -> ProtocolError {
    ProtocolError(.badArguments, "Unexpected argument '\(quoted(word))'; usage: \(command.usage)")
  }

  static func given(twice key: String, _ command: Request.Command) -> ProtocolError {
    ProtocolError(.badArguments, "'\(key)=' is given twice; usage: \(command.usage)")
  }

  private static func host(_ word: UnsafeRawBufferPointer) throws(ProtocolError) -> String {
    guard RequestID.isValidToken(word) else {
      throw ProtocolError(.badName, "Invalid host '\(quoted(word))'; \(MirrorState.hostRule)")
    }
    return String(decoding: word, as: UTF8.self)
  }

  private static func flag(_ word: UnsafeRawBufferPointer, _ key: String) throws(ProtocolError) -> Bool {
    guard word.count == 1, word[0] == UInt8(ascii: "0") || word[0] == UInt8(ascii: "1") else {
      throw ProtocolError(.badNumber, "Invalid \(key) '\(quoted(word))'; expected 0 or 1")
    }
    return word[0] == UInt8(ascii: "1")
  }

  /// A count: 0 … `Limits.maxCount`.
  private static func count(_ word: UnsafeRawBufferPointer, _ key: String) throws(ProtocolError) -> Int {
    let value = try big(word, key)
    guard value <= Limits.maxCount else {
      throw ProtocolError(.outOfRange, "\(key)=\(value) is over the largest count, \(Limits.maxCount)")
    }
    return value
  }

  /// A whole number from 0, digits only.
  static func big(_ word: UnsafeRawBufferPointer, _ key: String) throws(ProtocolError) -> Int {
    guard let value = DecimalParser.parse(word) else {
      throw ProtocolError(.badNumber, "Invalid \(key) '\(quoted(word))'; expected a whole number from 0")
    }
    return value
  }
}
