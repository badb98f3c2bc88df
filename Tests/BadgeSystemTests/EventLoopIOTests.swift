import BadgeCore
import BadgeSystem
import Glibc
import Testing

/// IO, post and deferred sources, and cancelling them. Tests are synchronous: each runs its
/// own loop on the test's thread.
@Suite struct EventLoopIOTests {
  @Test func anIOSourceFiresWhenThePeerWrites() throws {
    try withSocketPair { a, b throws in
      let loop = try EventLoop()
      var seen: IOEvents = []
      var text = ""
      let source = try loop.addIO(fd: a, events: .readable) { events in
        seen = events
        text = (try? a.receive().1) ?? ""
        loop.exit(code: 7)
      }
      defer { source.cancel() }
      try b.send("INCR mail\n")
      #expect(try loop.runGuarded() == 7)
      #expect(seen.contains(.readable))
      #expect(text == "INCR mail\n")
    }
  }

  @Test func aWriteWakesASleepingLoop() throws {
    try withSocketPair { a, b throws in
      let loop = try EventLoop()
      var order: [String] = []
      let writer = try loop.addTimer(at: Environment.monotonicMicroseconds + 20_000) {
        order.append("timer")
        try? b.send("x")
      }
      let reader = try loop.addIO(fd: a, events: .readable) { _ in
        order.append("io")
        loop.exit(code: 1)
      }
      defer {
        reader.cancel()
        writer.cancel()
      }
      #expect(try loop.runGuarded() == 1)
      #expect(order == ["timer", "io"])
    }
  }

  @Test func aClosedPeerIsAnEventWithEndOfFile() throws {
    let (a, b) = rawSocketPair()
    defer { a.close() }
    let loop = try EventLoop()
    var result: IOResult?
    let source = try loop.addIO(fd: a, events: .readable) { _ in
      result = try? a.receive().0
      loop.exit(code: 2)
    }
    defer { source.cancel() }
    b.close()
    #expect(try loop.runGuarded() == 2)
    #expect(result == .endOfFile)
  }

  @Test func setEventsChangesWhatIsWatched() throws {
    try withSocketPair { a, _ throws in
      let loop = try EventLoop()
      var seen: IOEvents = []
      let source = try loop.addIO(fd: a, events: .readable) { events in
        seen = events
        loop.exit(code: 3)
      }
      let switcher = try loop.addTimer(at: Environment.monotonicMicroseconds + 10_000) { source.setEvents(.writable) }
      defer {
        source.cancel()
        switcher.cancel()
      }
      #expect(try loop.runGuarded() == 3)
      #expect(seen.contains(.writable))
      #expect(!seen.contains(.readable), "nothing was sent")
    }
  }

  @Test func aPostSourceRunsAfterTheOtherSourcesOfItsTurn() throws {
    try withSocketPair { a, b throws in
      let loop = try EventLoop()
      var order: [String] = []
      let io = try loop.addIO(fd: a, events: .readable) { _ in
        _ = try? a.receive()
        order.append("io")
      }
      let post = try loop.addPost {
        order.append("post")
        loop.exit(code: 5)
      }
      defer {
        io.cancel()
        post.cancel()
      }
      try b.send("x")
      #expect(try loop.runGuarded() == 5)
      #expect(order == ["io", "post"])
    }
  }

  @Test func aPostSourceWaitsForAnotherSourceToRun() throws {
    let loop = try EventLoop()
    var order: [String] = []
    let timer = try loop.addTimer(at: Environment.monotonicMicroseconds + 30_000) { order.append("timer") }
    let post = try loop.addPost {
      order.append("post")
      loop.exit(code: 6)
    }
    defer {
      timer.cancel()
      post.cancel()
    }
    #expect(try loop.runGuarded() == 6)
    #expect(order == ["timer", "post"], "no post run on the idle turns before the timer")
  }

  @Test func aDeferredHandlerRunsOnce() throws {
    let loop = try EventLoop()
    var runs = 0
    let deferred = try loop.addDefer { runs += 1 }
    let stop = try loop.exit(code: 7, afterMs: 30)
    defer {
      deferred.cancel()
      stop.cancel()
    }
    #expect(try loop.runGuarded() == 7)
    #expect(runs == 1)
  }

  @Test func runReturnsTheExitCode() throws {
    let loop = try EventLoop()
    let deferred = try loop.addDefer { loop.exit(code: 42) }
    defer { deferred.cancel() }
    #expect(try loop.runGuarded() == 42)
  }

  @Test func aCancelledSourceIsNotCalled() throws {
    try withSocketPair { a, b throws in
      let loop = try EventLoop()
      var calls = 0
      let source = try loop.addIO(fd: a, events: .readable) { _ in calls += 1 }
      source.cancel()
      source.cancel()  // twice is harmless
      source.setEvents(.writable)  // and so is using it afterwards
      try b.send("x")
      let stop = try loop.exit(code: 8, afterMs: 30)
      defer { stop.cancel() }
      #expect(try loop.runGuarded() == 8)
      #expect(calls == 0)
    }
  }

  @Test func aSourceCanCancelItselfFromItsHandler() throws {
    try withSocketPair { a, b throws in
      let loop = try EventLoop()
      var calls = 0
      var source: IOSource?
      source = try loop.addIO(fd: a, events: .readable) { _ in
        calls += 1
        source?.cancel()  // the data stays unread: a live source would fire every turn
      }
      try b.send("x")
      let stop = try loop.exit(code: 9, afterMs: 30)
      defer { stop.cancel() }
      #expect(try loop.runGuarded() == 9)
      #expect(calls == 1)
      source = nil
    }
  }

  @Test func releasingASourceStopsIt() throws {
    try withSocketPair { a, b throws in
      let loop = try EventLoop()
      var calls = 0
      var source: IOSource? = try loop.addIO(fd: a, events: .readable) { _ in calls += 1 }
      #expect(source != nil)
      source = nil
      try b.send("x")
      let stop = try loop.exit(code: 10, afterMs: 30)
      defer { stop.cancel() }
      #expect(try loop.runGuarded() == 10)
      #expect(calls == 0)
    }
  }
}
