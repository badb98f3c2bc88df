/// Reads server bytes, fed in any split, into whole responses, within bounds: a response (its
/// lines and literals) longer than `maxLine`, or a literal announced longer than `maxLiteral`,
/// stops the parser at once with a violation, without reading the rest. It never holds more than
/// `maxLine` bytes of a response (the read being fed is the caller's).
public struct ImapResponseParser: Sendable {
  public let maxLine: Int
  public let maxLiteral: Int
  /// Why the parser stopped; once set, `feed` reads nothing more.
  public private(set) var failure: ImapFailure?

  /// The current response's bytes as they came on the wire (`{n}\r\n` and the literal included).
  private var buffer: [UInt8] = []
  /// Where the line after the last literal starts in `buffer`.
  private var lineStart = 0
  private var literalRemaining = 0

  public init(maxLine: Int = 4 << 20, maxLiteral: Int = 64 << 10) {
    self.maxLine = maxLine
    self.maxLiteral = maxLiteral
  }

  /// Bytes of a response not yet complete (after STARTTLS's OK there must be none: anything
  /// sent before the handshake was injected in the clear).
  public var pendingBytes: Int { buffer.count }

  /// The responses these bytes complete, in order; those before a violation are returned too
  /// (then `failure` is set).
  public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [ImapResponse] {
    var responses: [ImapResponse] = []
    var index = 0
    while index < bytes.count, failure == nil {
      if literalRemaining > 0 {
        let take = min(literalRemaining, bytes.count - index)
        guard keep(bytes, index..<index + take) else { break }
        literalRemaining -= take
        index += take
        if literalRemaining == 0 { lineStart = buffer.count }
        continue
      }
      var end = index
      while end < bytes.count, bytes[end] != 0x0A { end += 1 }
      guard end < bytes.count else {
        _ = keep(bytes, index..<bytes.count)
        break
      }
      guard keep(bytes, index..<end + 1) else { break }
      index = end + 1
      if let count = literalAnnounced() {
        guard count <= maxLiteral else {
          failure = .violation("a literal of \(count) bytes (at most \(maxLiteral))")
          break
        }
        literalRemaining = count
        lineStart = buffer.count
        continue
      }
      do {
        responses.append(try ImapResponseReader.read(buffer))
      } catch {
        failure = error
      }
      buffer.removeAll(keepingCapacity: buffer.capacity <= 64 << 10)
      lineStart = 0
    }
    if failure != nil { buffer = [] }
    return responses
  }

  /// Appends to the response, or stops the parser when the response would pass `maxLine`.
  private mutating func keep(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
    guard buffer.count + range.count <= maxLine else {
      failure = .violation("a response longer than \(maxLine) bytes")
      buffer = []
      return false
    }
    buffer.append(contentsOf: bytes[range])
    return true
  }

  /// The count of a literal announced at the end of the line just read (`{n}\r\n`, `{n+}\r\n`).
  private func literalAnnounced() -> Int? {
    var end = buffer.count - 1
    if end > lineStart, buffer[end - 1] == 0x0D { end -= 1 }
    end -= 1
    guard end > lineStart, buffer[end] == UInt8(ascii: "}") else { return nil }
    end -= 1
    if buffer[end] == UInt8(ascii: "+") { end -= 1 }
    var count = 0
    var digits = 0
    var place = 1
    while end >= lineStart, let digit = ImapResponseReader.digit(buffer[end]) {
      digits += 1
      if digits > 18 { return Int.max }
      count += digit * place
      place *= 10
      end -= 1
    }
    guard digits > 0, end >= lineStart, buffer[end] == UInt8(ascii: "{") else { return nil }
    return count
  }
}
