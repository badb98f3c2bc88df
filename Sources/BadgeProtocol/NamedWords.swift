import BadgeCore

/// The named words of a request line, `upto=<total>` and `id=<token>`: what they make of the
/// request its positional words gave, and every way they are refused.
extension RequestParser {
  /// The request with what its named words say: a clear or a seen up to a total, and the id.
  /// What a request takes is its row's: the word's (`command`, whose usage the errors quote),
  /// or, for a word that has forms, the row of the form its positional words made
  /// (`request.command`). A name given twice, a name the request does not take, an `upto` that
  /// is not a number and a token that breaks the rule are refused, so nothing is carried out.
  static func named(
    _ named: NamedWords, _ request: Request, _ command: Request.Command
  ) throws(ProtocolError) -> RequestLine {
    if let repeated = named.repeated {
      throw ProtocolError(.badArguments, "'\(repeated.rawValue)=' is given twice; usage: \(command.usage)")
    }
    var request = request
    let form = command.flags.contains(.hasForms) ? request.command : command
    if let word = named.upTo {
      let total = try upTo(word)
      guard form.flags.contains(.takesUpTo) else {
        let refusal = form.upToRefusal?.description ?? "\(command.word) takes no upto="
        throw ProtocolError(.badArguments, "\(refusal); usage: \(command.usage)")
      }
      request = request.reaching(total)
    }
    guard let token = named.id else { return RequestLine(request) }
    guard form.flags.contains(.takesID) else {
      throw ProtocolError(.badArguments, "\(command.word) takes no id=: ids are for requests that change something")
    }
    guard let id = RequestID(token: token, fingerprint: request.fingerprint) else {
      throw ProtocolError(.badArguments, "Invalid id '\(quoted(token))'; \(RequestID.tokenRule)")
    }
    return RequestLine(request, id: id)
  }

  /// `upto=`'s running total: digits only. A number past the largest integer is above any
  /// total, so it reads as the largest (a total above the channel's acts as the channel's).
  private static func upTo(_ word: UnsafeRawBufferPointer) throws(ProtocolError) -> Int {
    if let value = DecimalParser.parse(word) { return value }
    guard !word.isEmpty, word.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
      throw ProtocolError(
        .badNumber, "Invalid upto '\(quoted(word))'; expected a running total, a whole number from 0")
    }
    return Int.max
  }
}

/// The named words of a line: `id=<token>` and `upto=<total>`, their values as given.
struct NamedWords {
  /// A named word.
  enum Name: String {
    case id, upto
  }

  private(set) var id: UnsafeRawBufferPointer?
  private(set) var upTo: UnsafeRawBufferPointer?
  /// A name given twice, if one was.
  private(set) var repeated: Name?

  /// Whether `word` is a named word.
  static func isNamed(_ word: UnsafeRawBufferPointer) -> Bool {
    value(of: "id=", in: word) != nil || value(of: "upto=", in: word) != nil
  }

  /// Takes `word` in when it is a named word; returns whether it was.
  mutating func take(_ word: UnsafeRawBufferPointer) -> Bool {
    if let value = NamedWords.value(of: "id=", in: word) {
      if id != nil { repeated = .id }
      id = value
    } else if let value = NamedWords.value(of: "upto=", in: word) {
      if upTo != nil { repeated = .upto }
      upTo = value
    } else {
      return false
    }
    return true
  }

  /// What follows `name` in `word`, when `word` starts with it.
  @inline(__always)
  static func value(of name: StaticString, in word: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
    let count = name.utf8CodeUnitCount
    guard word.count >= count else { return nil }
    for i in 0..<count where word[i] != name.utf8Start[i] { return nil }
    return UnsafeRawBufferPointer(rebasing: word[count...])
  }
}
