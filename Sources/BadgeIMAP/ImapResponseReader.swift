/// One complete response's bytes (as `ImapResponseParser` framed them, literals inline) read
/// into an `ImapResponse`. A response the session knows but that is malformed is a violation (a
/// count kept from it would be wrong); one it does not know is `.unknown`.
enum ImapResponseReader {
  static func read(_ bytes: [UInt8]) throws(ImapFailure) -> ImapResponse {
    var lexer = ImapLexer(bytes)
    guard let first = lexer.word() else { return .unknown }
    if first == "+" {
      lexer.skip(UInt8(ascii: " "))
      return .continuation(lexer.text())
    }
    guard lexer.skip(UInt8(ascii: " ")) else { return .unknown }
    if first != "*" {
      guard let word = lexer.word(), let status = ImapStatus(rawValue: word.uppercased()),
        [.ok, .no, .bad].contains(status)
      else { return .unknown }
      let (code, text) = statusTail(&lexer)
      return .tagged(tag: first, status: status, code: code, text: text)
    }
    guard let word = lexer.word() else { return .unknown }
    if let number = UInt32(word) { return try numbered(number, &lexer) }
    let keyword = word.uppercased()
    if let status = ImapStatus(rawValue: keyword) {
      let (code, text) = statusTail(&lexer)
      return .status(status, code: code, text: text)
    }
    switch keyword {
    case "CAPABILITY": return .capability(capabilities(lexer.text()))
    case "ENABLED": return .enabled(capabilities(lexer.text()))
    case "SEARCH": return try search(&lexer)
    case "ESEARCH": return try esearch(&lexer)
    case "VANISHED": return try vanished(&lexer)
    case "LIST": return try list(&lexer)
    case "STATUS": return try mailboxStatus(&lexer)
    case "FLAGS":
      lexer.skip(UInt8(ascii: " "))
      return .flags(try atoms(lexer.value(), "FLAGS"))
    default: return .unknown
    }
  }

  static func digit(_ byte: UInt8) -> Int? {
    byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
  }

  /// `* n EXISTS`, `* n RECENT`, `* n EXPUNGE`, `* n FETCH (…)`.
  private static func numbered(_ number: UInt32, _ lexer: inout ImapLexer) throws(ImapFailure) -> ImapResponse {
    guard lexer.skip(UInt8(ascii: " ")), let word = lexer.word() else { return .unknown }
    switch word.uppercased() {
    case "EXISTS": return .exists(number)
    case "RECENT": return .recent(number)
    case "EXPUNGE":
      guard number > 0 else { throw .violation("EXPUNGE of message 0") }
      return .expunge(number)
    case "FETCH":
      guard number > 0 else { throw .violation("FETCH of message 0") }
      lexer.skip(UInt8(ascii: " "))
      return .fetch(sequence: number, try fetch(lexer.value()))
    default: return .unknown
    }
  }

  private static func fetch(_ value: ImapValue?) throws(ImapFailure) -> ImapFetch {
    guard case .list(let items) = value, items.count % 2 == 0 else { throw .violation("FETCH without its items") }
    var fetch = ImapFetch()
    for pair in stride(from: 0, to: items.count, by: 2) {
      guard case .atom(let name) = items[pair] else { throw .violation("FETCH item without a name") }
      let value = items[pair + 1]
      switch name.uppercased() {
      case "UID":
        guard case .atom(let text) = value, let uid = UInt32(text), uid > 0 else { throw .violation("FETCH UID") }
        fetch.uid = uid
      case "FLAGS": fetch.flags = try atoms(value, "FETCH FLAGS")
      case "MODSEQ":
        guard case .list(let inner) = value, inner.count == 1, case .atom(let text) = inner[0],
          let modSeq = UInt64(text)
        else { throw .violation("FETCH MODSEQ") }
        fetch.modSeq = modSeq
      default: continue
      }
    }
    return fetch
  }

  /// `* SEARCH 1 2 3`, and `(MODSEQ m)` at the end (CONDSTORE).
  private static func search(_ lexer: inout ImapLexer) throws(ImapFailure) -> ImapResponse {
    var numbers: [UInt32] = []
    var modSeq: UInt64?
    while lexer.skip(UInt8(ascii: " ")) {
      switch lexer.value() {
      case .atom(let text):
        guard let number = UInt32(text) else { throw .violation("SEARCH result \(text)") }
        numbers.append(number)
      case .list(let inner):
        guard inner.count == 2, case .atom(let name) = inner[0], name.uppercased() == "MODSEQ",
          case .atom(let text) = inner[1], let value = UInt64(text)
        else { throw .violation("SEARCH's MODSEQ") }
        modSeq = value
      case nil: break
      default: throw .violation("SEARCH result")
      }
    }
    return .search(numbers, modSeq: modSeq)
  }

  /// `* ESEARCH (TAG "a3") UID ALL 1:3,7 MIN 1 MAX 7 COUNT 4`.
  private static func esearch(_ lexer: inout ImapLexer) throws(ImapFailure) -> ImapResponse {
    var result = ImapESearch()
    var values: [ImapValue] = []
    while lexer.skip(UInt8(ascii: " ")), let value = lexer.value() { values.append(value) }
    var index = 0
    if case .list(let correlator)? = values.first {
      if correlator.count == 2, case .atom(let name) = correlator[0], name.uppercased() == "TAG" {
        result.tag = correlator[1].text
      }
      index = 1
    }
    if index < values.count, case .atom(let word) = values[index], word.uppercased() == "UID" {
      result.uid = true
      index += 1
    }
    while index + 1 < values.count {
      guard case .atom(let name) = values[index], case .atom(let text) = values[index + 1] else {
        index += 2
        continue
      }
      switch name.uppercased() {
      case "ALL": result.all = try ImapSequenceSet.numbers(text)
      case "MIN": result.min = try number(text, "ESEARCH MIN")
      case "MAX": result.max = try number(text, "ESEARCH MAX")
      case "COUNT": result.count = try number(text, "ESEARCH COUNT")
      case "MODSEQ": result.modSeq = UInt64(text)
      default: break
      }
      index += 2
    }
    return .esearch(result)
  }

  /// `* VANISHED (EARLIER) 1:3,9`.
  private static func vanished(_ lexer: inout ImapLexer) throws(ImapFailure) -> ImapResponse {
    lexer.skip(UInt8(ascii: " "))
    var value = lexer.value()
    var earlier = false
    if case .list(let inner) = value {
      earlier = inner.contains { $0.text?.uppercased() == "EARLIER" }
      lexer.skip(UInt8(ascii: " "))
      value = lexer.value()
    }
    guard case .atom(let set) = value else { throw .violation("VANISHED without UIDs") }
    return .vanished(earlier: earlier, uids: try ImapSequenceSet.numbers(set))
  }

  /// `* LIST (\HasNoChildren) "/" INBOX`: the name quoted, an atom or a literal.
  private static func list(_ lexer: inout ImapLexer) throws(ImapFailure) -> ImapResponse {
    lexer.skip(UInt8(ascii: " "))
    let flags = try atoms(lexer.value(), "LIST flags")
    lexer.skip(UInt8(ascii: " "))
    let delimiter = lexer.value()
    lexer.skip(UInt8(ascii: " "))
    guard let delimiter, let name = lexer.value()?.bytes else { throw .violation("LIST without a name") }
    return .list(flags: flags, delimiter: delimiter.text, name: ModifiedUTF7.decode(name))
  }

  /// `* STATUS name (MESSAGES 3 UNSEEN 1)`.
  private static func mailboxStatus(_ lexer: inout ImapLexer) throws(ImapFailure) -> ImapResponse {
    lexer.skip(UInt8(ascii: " "))
    guard let name = lexer.value()?.bytes else { throw .violation("STATUS without a name") }
    lexer.skip(UInt8(ascii: " "))
    guard case .list(let inner) = lexer.value(), inner.count % 2 == 0 else { throw .violation("STATUS items") }
    var items: [String: UInt64] = [:]
    for pair in stride(from: 0, to: inner.count, by: 2) {
      guard let key = inner[pair].text, let text = inner[pair + 1].text, let value = UInt64(text) else {
        throw .violation("STATUS item")
      }
      items[key.uppercased()] = value
    }
    return .mailboxStatus(name: ModifiedUTF7.decode(name), items: items)
  }

  /// A status response's `[code] text`; a bracket that does not close is text.
  private static func statusTail(_ lexer: inout ImapLexer) -> (ImapResponseCode?, String) {
    lexer.skip(UInt8(ascii: " "))
    let text = lexer.text()
    guard text.hasPrefix("["), let close = text.firstIndex(of: "]") else { return (nil, text) }
    let inside = text[text.index(after: text.startIndex)..<close]
    var rest = text[text.index(after: close)...]
    if rest.hasPrefix(" ") { rest = rest.dropFirst() }
    let name = inside.prefix { $0 != " " }
    let argument = inside.count > name.count ? String(inside.dropFirst(name.count + 1)) : nil
    return (code(name.uppercased(), argument), String(rest))
  }

  private static func code(_ name: String, _ argument: String?) -> ImapResponseCode {
    switch name {
    case "CAPABILITY": return .capability(capabilities(argument ?? ""))
    case "UIDVALIDITY": if let value = argument.flatMap({ UInt32($0) }) { return .uidValidity(value) }
    case "UIDNEXT": if let value = argument.flatMap({ UInt32($0) }) { return .uidNext(value) }
    case "HIGHESTMODSEQ": if let value = argument.flatMap({ UInt64($0) }) { return .highestModSeq(value) }
    case "NOMODSEQ": return .noModSeq
    case "ALERT": return .alert
    case "AUTHENTICATIONFAILED": return .authenticationFailed
    case "CLOSED": return .closed
    default: break
    }
    return .other(name, argument)
  }

  /// Capability names, upper-cased (they compare without regard to case).
  private static func capabilities(_ text: String) -> Set<String> {
    Set(text.split(separator: " ").map { $0.uppercased() })
  }

  private static func atoms(_ value: ImapValue?, _ what: String) throws(ImapFailure) -> [String] {
    guard case .list(let inner) = value else { throw .violation("\(what) without a list") }
    var names: [String] = []
    for item in inner {
      guard case .atom(let name) = item else { throw .violation("\(what): not a flag") }
      names.append(name)
    }
    return names
  }

  private static func number(_ text: String, _ what: String) throws(ImapFailure) -> UInt32 {
    guard let value = UInt32(text) else { throw .violation(what) }
    return value
  }
}
