import BadgeProtocol

/// libFuzzer target: bytes from a client, framed into lines as the daemon frames them
/// (`LineReader` with the protocol's limits) and parsed (`RequestParser`).
///
/// The first byte picks the size of the reads the bytes arrive in (1 to 256), so that lines
/// cut across reads are framed too. Checked beyond "never crashes": the frames do not depend on
/// how the bytes were cut, no line handed out is longer than the limit, and every request read
/// is written by `RequestEncoder` as a line that reads back as the same request.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  let bytes = UnsafeBufferPointer(start: data, count: size)
  let chunk = Int(bytes[0]) + 1
  let stream = bytes.dropFirst()
  let whole = frames(of: stream, chunk: max(stream.count, 1))
  let cut = frames(of: stream, chunk: chunk)
  precondition(whole == cut, "framing depends on how the bytes were read")
  return 0
}

/// What one line of a client's bytes becomes.
private enum Framed: Equatable {
  case tooLong
  case empty
  case parsed(Result<RequestLine, ProtocolError>)
}

/// What a client's bytes become, line by line.
private func frames(of stream: Slice<UnsafeBufferPointer<UInt8>>, chunk: Int) -> [Framed] {
  var reader = LineReader()
  let limit = reader.maxLineLength
  var out: [Framed] = []
  var rest = stream[...]
  while !rest.isEmpty {
    let n = reader.read { space in
      let n = min(space.count, rest.count, chunk)
      space.copyBytes(from: rest.prefix(n))
      return n
    }
    precondition(n > 0, "the reader refused bytes although every line was consumed")
    rest = rest.dropFirst(n)
    reader.forEachFrame { frame in
      switch frame {
      case .tooLong:
        out.append(.tooLong)
      case .line(let line):
        precondition(line.count <= limit, "a line over the limit was handed out")
        let parsed = RequestParser.parse(line)
        if case .success(let read)? = parsed {
          let again = RequestParser.parse(RequestEncoder.line(read.request))
          precondition(again == .success(RequestLine(read.request)), "a request written is read as another")
        }
        out.append(parsed.map(Framed.parsed) ?? .empty)
      }
      return true
    }
  }
  return out
}
