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

  /// The request in the text `line`, read as the daemon reads its bytes (a client reading a
  /// request line it was handed, as the bridge a `FORWARD`'s).
  public static func parse(_ line: String) -> Result<RequestLine, ProtocolError>? {
    var line = line
    return line.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
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
    guard let command = Request.Command.named(first), let arguments = command.arguments else {
      return .failure(ProtocolError(.unknownCommand, "Unknown command '\(quoted(first))'"))
    }
    do throws(ProtocolError) {
      let request = try arguments.read(&words, command)
      guard var extra = words.next() else { return .success(request) }
      // Every word left is a named one.
      var named = NamedWords()
      while true {
        guard named.take(extra) else {
          throw ProtocolError(.badArguments, "Unexpected argument '\(quoted(extra))'; usage: \(command.usage)")
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

  static let namingRule = ChannelName.namingRule

  // MARK: - Words every command reads

  /// The channel, the first argument of most commands.
  static func channel(_ words: inout Words, _ command: Request.Command) throws(ProtocolError) -> ChannelName {
    guard let word = words.next() else {
      throw ProtocolError(.badArguments, "Missing channel; usage: \(command.usage)")
    }
    return try name(word)
  }

  static func name(_ word: UnsafeRawBufferPointer) throws(ProtocolError) -> ChannelName {
    guard let name = ChannelName(bytes: word) else {
      throw ProtocolError(.badName, "Invalid channel name '\(quoted(word))'; \(namingRule)")
    }
    return name
  }

  /// The rest of the line as channel names or globs.
  static func patterns(_ words: inout Words, first: UnsafeRawBufferPointer? = nil) throws(ProtocolError)
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

  /// A count or amount: digits only, within 0 (or 1) … `Limits.maxCount`.
  static func number(_ word: UnsafeRawBufferPointer, allowZero: Bool) throws(ProtocolError) -> Int {
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

  // MARK: - Bytes

  @inline(__always)
  private static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
    for byte in bytes where byte >= 0x80 { return false }
    return true
  }

  /// User input for a message: decoded, and cut at 64 characters.
  static func quoted(_ word: UnsafeRawBufferPointer) -> String {
    quoted(String(decoding: word, as: UTF8.self))
  }

  static func quoted(_ text: String) -> String {
    text.count > 64 ? String(text.prefix(64)) + "…" : text
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
