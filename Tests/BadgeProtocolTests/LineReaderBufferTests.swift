import BadgeProtocol
import Testing

/// The reader's storage: back-pressure, a full buffer, growth up to the capacity.
@Suite struct LineReaderBufferTests {
  @Test func defaultsFollowTheProtocol() {
    #expect(LineReader().maxLineLength == ProtocolInfo.maxLineLength)
    #expect(ProtocolInfo.maxLineLength == 4096)
    #expect(LineReader(maxLineLength: 8, capacity: 16).maxLineLength == 8)
    #expect(LineReader().bufferedCount == 0)
  }

  @Test func appendTakesBytesAndFramesThem() {
    var reader = LineReader()
    reader.append(bytes("INCR mail\nGET"))
    #expect(reader.bufferedCount == 13)
    #expect(reader.drain() == [.text("INCR mail")])
    #expect(reader.bufferedCount == 3)
    reader.append(bytes(" mail\n")[...])
    #expect(reader.drain() == [.text("GET mail")])
    #expect(reader.bufferedCount == 0)
  }

  @Test func aBodyReturningFalseLeavesTheRestForLater() {
    var reader = LineReader()
    reader.append(bytes("a\nb\r\nc\n"))
    var seen: [Framed] = []
    reader.forEachFrame {
      seen.append(Framed($0))
      return false
    }
    #expect(seen == [.text("a")])
    #expect(reader.bufferedCount == 5)
    reader.forEachFrame {
      seen.append(Framed($0))
      return false
    }
    #expect(seen == [.text("a"), .text("b")])
    #expect(reader.drain() == [.text("c")])
    #expect(reader.bufferedCount == 0)
    #expect(reader.drain().isEmpty)
  }

  @Test func stoppingAtAnOverLongLineKeepsTheLinesAfterIt() {
    var reader = LineReader(maxLineLength: 4, capacity: 16)
    reader.append(bytes("toolong\nok\n"))
    var seen: [Framed] = []
    reader.forEachFrame {
      seen.append(Framed($0))
      return false
    }
    #expect(seen == [.tooLong])
    #expect(reader.drain() == [.text("ok")])
  }

  @Test func aFullBufferTakesNothingUntilLinesAreConsumed() {
    var reader = LineReader(maxLineLength: 4, capacity: 8)
    reader.append(bytes("a\nb\nc\nd\n"))
    var called = false
    #expect(
      reader.read { _ in
        called = true
        return 0
      } == 0)
    #expect(!called, "no room: the body is not called")
    reader.forEachFrame { _ in false }  // consume one line
    var offered = 0
    let n = reader.read { space in
      offered = space.count
      space.copyBytes(from: bytes("e\n"))
      return 2
    }
    #expect(n == 2)
    #expect(offered == 2, "the consumed line's room, moved to the end")
    #expect(reader.drain() == [.text("b"), .text("c"), .text("d"), .text("e")])
  }

  @Test func readKeepsOnlyWhatTheBodyReports() {
    var reader = LineReader()
    #expect(
      reader.read { space in
        space.copyBytes(from: bytes("PING\nJUNK"))
        return 5
      } == 5)
    #expect(reader.bufferedCount == 5)
    #expect(reader.read { _ in 0 } == 0, "end of file or nothing to read")
    #expect(reader.read { _ in -1 } == -1, "a failed read adds nothing")
    #expect(reader.bufferedCount == 5)
    #expect(reader.drain() == [.text("PING")])
  }

  @Test func storageStartsSmallAndGrowsToTheCapacity() {
    var reader = LineReader(maxLineLength: 10_000, capacity: 20_000)
    var offers: [Int] = []
    var total = 0
    while true {
      var called = false
      let n = reader.read { space in
        called = true
        offers.append(space.count)
        space.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: "x"))
        return space.count
      }
      if !called { break }
      total += n
      #expect(total <= 20_000)
    }
    #expect(offers.first.map { $0 <= 4096 } == true, "a new reader does not take the whole capacity at once")
    #expect(offers.count > 1, "it grew")
    #expect(total == 20_000, "up to the capacity, and no further")
    #expect(reader.bufferedCount == 20_000)
    #expect(reader.drain() == [.tooLong])
    #expect(reader.bufferedCount == 0)
  }

  @Test func aSmallFirstBufferDoublesOnEachFullRead() {
    var reader = LineReader(maxLineLength: 4096, capacity: 65536, initialCapacity: 256)
    #expect(reader.storageCapacity == 256)
    reader.append(bytes("WATCH *\n"))
    #expect(reader.drain() == [.text("WATCH *")])
    #expect(reader.storageCapacity == 256, "a short line leaves the buffer as it was")
    var offers: [Int] = []
    while offers.count < 3 {
      _ = reader.read { space in
        offers.append(space.count)
        space.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: "x"))
        return space.count
      }
    }
    #expect(offers == [256, 256, 512], "256 bytes, then doubled each time it was full")
    #expect(reader.storageCapacity == 1024)
    let line = bytes("L", 4096)
    reader.append(bytes("\n") + line + bytes("\n"))
    #expect(reader.drain() == [.text(String(repeating: "x", count: 1024)), .line(line)])
  }

  @Test func aLineLongerThanTheFirstStorageIsAccepted() {
    var reader = LineReader(maxLineLength: 10_000, capacity: 20_000)
    let line = bytes("L", 9000)
    reader.append(line + bytes("\r\n") + line + bytes("\n"))
    #expect(reader.drain() == [.line(line), .line(line)])
  }

  @Test func lineViewsShowTheBytesOfTheirLine() {
    var reader = LineReader()
    reader.append(bytes("INCR mail 3\r\n"))
    reader.forEachFrame { frame in
      guard case .line(let view) = frame else {
        Issue.record("expected a line")
        return true
      }
      #expect(view.count == 11)
      #expect(view.first == UInt8(ascii: "I"))
      #expect(view.last == UInt8(ascii: "3"))
      return true
    }
  }
}
