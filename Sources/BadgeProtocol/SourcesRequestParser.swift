import BadgeCore

/// How the sources program's commands read their arguments: `SOURCES [attach | config …]` and
/// `SOURCE <name> claim|release|status|stopped …` (docs/PROTOCOL.md, "Sources").
extension RequestParser {
  /// `SOURCES`, `SOURCES attach`, `SOURCES config ok`, `SOURCES config error=<text>`.
  enum SourcesArguments: ArgumentReader {
    static func read(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> Request {
      guard let first = words.next() else { return .sources(.query) }
      switch String(decoding: first, as: UTF8.self).lowercased() {
      case "attach":
        try noMore(&words, command)
        return .sources(.attach)
      case "config":
        guard let word = words.next() else {
          throw ProtocolError(.badArguments, "Missing ok or error=<text>; usage: \(command.usage)")
        }
        if String(decoding: word, as: UTF8.self) == "ok" {
          try noMore(&words, command)
          return .sources(.config(error: nil))
        }
        guard let error = NamedWords.value(of: "error=", in: word) else { throw unexpected(word, command) }
        let text = restOfLine(error, &words)
        guard !text.isEmpty else {
          throw ProtocolError(.badArguments, "Missing the error's text; usage: \(command.usage)")
        }
        return .sources(.config(error: text))
      default:
        throw unexpected(first, command)
      }
    }
  }

  /// `SOURCE <name> claim <channel> on_clear=<seen|mark-read>`, `SOURCE <name> release
  /// <channel>`, `SOURCE <name> status kind=… state=… channels=… count=… [changed=…]
  /// [retry_at=…] [error=<text>]`, `SOURCE <name> stopped`.
  enum SourceArguments: ArgumentReader {
    static func read(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> Request {
      guard let nameWord = words.next() else {
        throw ProtocolError(.badArguments, "Missing source name; usage: \(command.usage)")
      }
      guard RequestID.isValidToken(nameWord) else {
        throw ProtocolError(.badName, "Invalid source name '\(quoted(nameWord))'; \(SourceMark.nameRule)")
      }
      let name = String(decoding: nameWord, as: UTF8.self)
      guard let verb = words.next() else {
        throw ProtocolError(.badArguments, "Missing claim, release, status or stopped; usage: \(command.usage)")
      }
      switch String(decoding: verb, as: UTF8.self).lowercased() {
      case "claim":
        let channel = try RequestParser.channel(&words, command)
        guard let word = words.next(), let value = NamedWords.value(of: "on_clear=", in: word) else {
          throw ProtocolError(.badArguments, "Missing on_clear=<seen|mark-read>; usage: \(command.usage)")
        }
        let markRead: Bool
        switch String(decoding: value, as: UTF8.self) {
        case "seen": markRead = false
        case "mark-read": markRead = true
        default:
          throw ProtocolError(.badArguments, "Invalid on_clear '\(quoted(value))'; expected seen or mark-read")
        }
        try noMore(&words, command)
        return .source(name, .claim(channel, markRead: markRead))
      case "release":
        let channel = try RequestParser.channel(&words, command)
        try noMore(&words, command)
        return .source(name, .release(channel))
      case "status":
        return .source(name, .status(try status(of: name, &words, command)))
      case "stopped":
        try noMore(&words, command)
        return .source(name, .stopped)
      default:
        throw unexpected(verb, command)
      }
    }

    /// The fields of `SOURCE <name> status`: each once, `error=` last (the rest of the line).
    private static func status(
      of name: String, _ words: inout Words, _ command: Request.Command
    ) throws(ProtocolError) -> SourceStatus {
      var status = SourceStatus(name: name, kind: "", state: .waiting)
      var seen: Set<String> = []
      while let word = words.next() {
        guard let eq = word.firstIndex(of: UInt8(ascii: "=")) else { throw unexpected(word, command) }
        let key = String(decoding: UnsafeRawBufferPointer(rebasing: word[..<eq]), as: UTF8.self)
        let value = UnsafeRawBufferPointer(rebasing: word[(eq + 1)...])
        guard seen.insert(key).inserted else { throw given(twice: key, command) }
        switch key {
        case "kind":
          guard RequestID.isValidToken(value) else {
            throw ProtocolError(.badName, "Invalid kind '\(quoted(value))'; \(SourceMark.nameRule)")
          }
          status.kind = String(decoding: value, as: UTF8.self)
        case "state":
          guard let state = SourceStatus.State(rawValue: String(decoding: value, as: UTF8.self)) else {
            let states = SourceStatus.State.allCases.map(\.rawValue).joined(separator: ", ")
            throw ProtocolError(.badArguments, "Invalid state '\(quoted(value))'; expected one of \(states)")
          }
          status.state = state
        case "channels": status.channels = try number(value, allowZero: true)
        case "count": status.count = try number(value, allowZero: true)
        case "changed": status.changed = try big(value, key)
        case "retry_at": status.retryAt = try big(value, key)
        case "error":
          status.error = restOfLine(value, &words)
          return try complete(status, seen, command)
        default: throw unexpected(word, command)
        }
      }
      return try complete(status, seen, command)
    }

    private static func complete(
      _ status: SourceStatus, _ seen: Set<String>, _ command: Request.Command
    ) throws(ProtocolError) -> SourceStatus {
      for key in ["kind", "state", "channels", "count"] where !seen.contains(key) {
        throw ProtocolError(.badArguments, "Missing \(key)=; usage: \(command.usage)")
      }
      return status
    }

  }

  /// A text that is the rest of the line, from `first` on, spaces and all, but for the blanks
  /// and CR that end it: a CR there would not survive the line's own end (a CR before the LF is
  /// not part of the line), so the text is kept as a line can carry it, and written back as it
  /// was read.
  static func restOfLine(_ first: UnsafeRawBufferPointer, _ words: inout Words) -> String {
    var text = String(decoding: first, as: UTF8.self) + words.rest()
    while let last = text.utf8.last, last == 0x0D || last == 0x20 || last == 0x09 { text.removeLast() }
    return text
  }

  private static func noMore(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) {
    if let extra = words.next() { throw unexpected(extra, command) }
  }

}
