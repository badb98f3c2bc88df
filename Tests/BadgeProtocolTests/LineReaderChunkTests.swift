import BadgeProtocol
import Testing

/// Inputs split at every chunk size from 1 byte to their whole length (swift-nio's
/// `chunkSizes` idea, taken to every size): framing must not depend on where reads end.
@Suite struct LineReaderChunkTests {
  static let a4096 = bytes("A", 4096)

  /// Complete streams: each ends with a line terminator, so the reader is empty afterwards.
  static let cases: [FramingCase] = [
    FramingCase(name: "one line", input: bytes("PING\n"), frames: [.text("PING")]),
    FramingCase(
      name: "CR LF", input: bytes("INCR mail\r\nGET mail\r\n"), frames: [.text("INCR mail"), .text("GET mail")]),
    FramingCase(name: "LF and CR LF mixed", input: bytes("a\nb\r\nc\n"), frames: [.text("a"), .text("b"), .text("c")]),
    FramingCase(
      name: "empty lines", input: bytes("\n\r\n\nx\n"), frames: [.text(""), .text(""), .text(""), .text("x")]),
    FramingCase(
      name: "a CR not before LF is kept", input: bytes("a\rb\nc\r\r\n\r\r\n"),
      frames: [.text("a\rb"), .text("c\r"), .text("\r")]),
    FramingCase(
      name: "pipelined requests", input: Array(repeating: bytes("INCR mail 3\n"), count: 50).flatMap { $0 },
      frames: Array(repeating: .text("INCR mail 3"), count: 50)),
    FramingCase(name: "4096 bytes then LF", input: a4096 + bytes("\nPING\n"), frames: [.line(a4096), .text("PING")]),
    FramingCase(
      name: "4096 bytes then CR LF", input: a4096 + bytes("\r\nPING\r\n"), frames: [.line(a4096), .text("PING")]),
    FramingCase(
      name: "short lines around a 4096-byte one", input: bytes("a\n") + a4096 + bytes("\nb\n"),
      frames: [.text("a"), .line(a4096), .text("b")]),
    FramingCase(
      name: "4097 bytes then LF", input: bytes("A", 4097) + bytes("\nPING\n"), frames: [.tooLong, .text("PING")]),
    FramingCase(
      name: "4097 bytes then CR LF", input: bytes("A", 4097) + bytes("\r\nPING\n"), frames: [.tooLong, .text("PING")]),
    FramingCase(
      name: "4096 bytes and a CR then CR LF", input: a4096 + bytes("\r\r\nPING\n"), frames: [.tooLong, .text("PING")]),
    FramingCase(
      name: "over-long line across many chunks", input: bytes("GET a\n") + bytes("B", 9000) + bytes("\nPING\n"),
      frames: [.text("GET a"), .tooLong, .text("PING")]),
    FramingCase(
      name: "two over-long lines in a row",
      input: bytes("A", 5000) + bytes("\n") + bytes("B", 4200) + bytes("\r\nPING\n"),
      frames: [.tooLong, .tooLong, .text("PING")]),
    FramingCase(
      name: "over-long line then an empty line", input: bytes("A", 4500) + bytes("\n\n"), frames: [.tooLong, .text("")]),
  ]

  /// One reader per case, fed the case once per chunk size: a reader must come back empty from
  /// a complete stream. (A new reader per size would spend nearly all the time zero-filling
  /// grown storage in a debug build; `framesWithANewReader` covers growth on the first bytes.)
  @Test(arguments: cases)
  func framesAtEveryChunkSize(_ c: FramingCase) {
    var reader = LineReader()
    for size in 1...c.input.count {
      let frames = reader.feed(c.input, chunkSize: size).map(\.frame)
      guard frames == c.frames, reader.bufferedCount == 0 else {
        Issue.record("chunk size \(size): \(frames) != \(c.frames), \(reader.bufferedCount) bytes left")
        return  // one report per case is enough to debug it
      }
    }
  }

  @Test(arguments: cases, [1, 2, 3, 5, 7, 13, 64, 1000, 2049, 4095, 4096, 4097, 4098, 4099, 8192, 100_000])
  func framesWithANewReader(_ c: FramingCase, _ chunkSize: Int) {
    #expect(LineReader.frames(of: c.input, chunkSize: chunkSize) == c.frames)
  }

  @Test func anOverLongLineIsReportedAsSoonAsItIsKnown() {
    // 4098 bytes without a LF cannot be a line of 4096 plus CR: the error comes then, without
    // waiting for the LF that may never come.
    let input = bytes("A", 6000) + bytes("\nPING\n")
    var reader = LineReader()
    for size in 1...input.count {
      let frames = reader.feed(input, chunkSize: size)
      let firstChunkEndPast4097 = min((4098 + size - 1) / size * size, input.count)
      guard frames.map(\.frame) == [.tooLong, .text("PING")], frames[0].received == firstChunkEndPast4097 else {
        Issue.record("chunk size \(size): \(frames)")
        return
      }
    }
  }

  @Test(arguments: [(bytes("PING\nINCR ma"), [Framed.text("PING")], 7), (bytes("x\n") + a4096, [.text("x")], 4096)])
  func anUnterminatedTailWaits(_ input: [UInt8], _ frames: [Framed], _ left: Int) {
    for size in 1...input.count {
      var reader = LineReader()
      let got = reader.feed(input, chunkSize: size).map(\.frame)
      guard got == frames, reader.bufferedCount == left else {
        Issue.record("chunk size \(size): \(got), \(reader.bufferedCount) left")
        return
      }
    }
  }

  @Test func theTailBecomesALineWithItsEnd() {
    var reader = LineReader()
    #expect(reader.feed(bytes("PING\nINCR ma"), chunkSize: 3).map(\.frame) == [.text("PING")])
    #expect(reader.feed(bytes("il\n"), chunkSize: 1).map(\.frame) == [.text("INCR mail")])
    #expect(reader.bufferedCount == 0)
  }

  @Test(arguments: 0...12)
  func aSmallLimitAcceptsLinesUpToItsLength(_ length: Int) {
    // The same boundary with an 8-byte limit, where every split of every length is cheap.
    let line = bytes("x", length)
    let expected: Framed = length <= 8 ? .line(line) : .tooLong
    for terminator in ["\n", "\r\n"] {
      let input = line + bytes(terminator) + bytes("ok\n")
      for size in 1...input.count {
        let frames = LineReader.frames(of: input, chunkSize: size, maxLineLength: 8, capacity: 16)
        #expect(frames == [expected, .text("ok")], "\(length) bytes + \(terminator.debugDescription), chunk \(size)")
      }
    }
  }
}
