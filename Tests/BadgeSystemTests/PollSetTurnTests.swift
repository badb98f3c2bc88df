import BadgeSystem
import Glibc
import Testing

/// The loop's turn around its poll set (`EventLoop+PollSet`): one wait serves the clients and
/// ends their turn with the post handlers, while sd-event's timers, deferred handlers and exit
/// still work from inside such a turn. A step that should not wait is given a long timeout,
/// so that a loop that waited anyway shows as a step that served nothing.
@Suite struct PollSetTurnTests {
  /// A long timeout for a step that must not need it.
  static let patience: UInt64 = 5_000_000

  /// A loop with a poll set watching one end of a socket pair; `served` runs in each turn of
  /// the poll set, after the handler has read what the socket held.
  final class Rig {
    let loop: EventLoop
    let (near, far) = rawSocketPair()
    var set: PollSet?
    var turns = 0
    var served: () -> Void = {}

    init() throws {
      loop = try EventLoop()
      set = try PollSet(loop: loop) { [unowned self] in
        turns += 1
        set!.ready { fd, _ in
          var buffer = [UInt8](repeating: 0, count: 64)
          _ = Glibc.read(fd, &buffer, buffer.count)
        }
        served()
      }
      try set!.add(near, events: .readable)
    }

    deinit {
      near.close()
      far.close()
    }

    /// The peer sends a byte: a request.
    func request() throws {
      _ = try [UInt8(ascii: "x")].withUnsafeBytes { try far.write($0) }
    }
  }

  @Test func aTurnOfClientsEndsWithEveryPostHandlerOnce() throws {
    let rig = try Rig()
    var order: [String] = []
    rig.served = { order.append("clients") }
    let first = try rig.loop.addPost { order.append("first post") }
    let second = try rig.loop.addPost { order.append("second post") }
    defer {
      first.cancel()
      second.cancel()
    }
    try rig.request()
    #expect(try rig.loop.runOnce(timeout: Self.patience))
    #expect(order == ["clients", "first post", "second post"])
    #expect(try rig.loop.runOnce(timeout: 0) == false, "an idle turn runs no post handler")
    #expect(order.count == 3)
  }

  @Test func aTimerMovedEarlierDuringAClientsTurnFiresAtItsNewDeadline() throws {
    let rig = try Rig()
    var firedAt: UInt64?
    let timer = try rig.loop.addTimer(at: Environment.monotonicMicroseconds + 3_600_000_000) {
      firedAt = Environment.monotonicMicroseconds
    }
    defer { timer.cancel() }
    // sd-event arms its timer descriptor for the hour, and stays armed.
    #expect(try rig.loop.runOnce(timeout: 0) == false)
    var deadline: UInt64 = 0
    rig.served = {
      deadline = rig.loop.now + 20_000
      timer.schedule(at: deadline)
    }
    try rig.request()
    var steps = 0
    while firedAt == nil && steps < 4 {
      try rig.loop.runOnce(timeout: Self.patience)
      steps += 1
    }
    #expect(rig.turns == 1)
    #expect(firedAt.map { $0 >= deadline } == true, "fired, and not before its deadline")
    #expect(steps <= 3, "the client's turn, sd-event armed anew, the timer: no step waited in vain")
  }

  @Test func aTurnOfATimerAloneEndsWithItsPostSource() throws {
    let rig = try Rig()
    var order: [String] = []
    let post = try rig.loop.addPost { order.append("post") }
    let timer = try rig.loop.addTimer(at: Environment.monotonicMicroseconds + 10_000) { order.append("timer") }
    defer {
      post.cancel()
      timer.cancel()
    }
    while order.count < 2 { try rig.loop.runOnce(timeout: Self.patience) }
    #expect(order == ["timer", "post"])
    #expect(rig.turns == 0)
    #expect(try rig.loop.runOnce(timeout: 0) == false)
    #expect(order == ["timer", "post"], "the post handler ran once")
  }

  @Test func workLeftOverIsServedNextTurnWithoutWaiting() throws {
    let rig = try Rig()
    rig.served = { if rig.turns == 1 { rig.set!.serveNextTurn() } }
    try rig.request()
    #expect(try rig.loop.runOnce(timeout: Self.patience))
    #expect(try rig.loop.runOnce(timeout: Self.patience), "served at once, though no client is ready")
    #expect(rig.turns == 2)
    #expect(try rig.loop.runOnce(timeout: 0) == false)
    #expect(rig.turns == 2)
  }

  @Test func aDeferredHandlerTriggeredDuringAClientsTurnRunsWithoutAnotherWake() throws {
    let rig = try Rig()
    var runs = 0
    let deferred = try rig.loop.addDefer { runs += 1 }
    defer { deferred.cancel() }
    #expect(try rig.loop.runOnce(timeout: 0))
    #expect(runs == 1)
    rig.served = { deferred.trigger() }
    try rig.request()
    #expect(try rig.loop.runOnce(timeout: Self.patience))
    #expect(runs == 2)
  }

  @Test func anExitAskedForDuringAClientsTurnEndsRunWithItsCode() throws {
    let rig = try Rig()
    rig.served = { rig.loop.exit(code: 12) }
    try rig.request()
    #expect(try rig.loop.runGuarded() == 12)
    #expect(rig.turns == 1)
  }

  @Test func theTurnsInstantIsTheLoopsTimeForItsHandlers() throws {
    let rig = try Rig()
    var seen: [UInt64] = []
    rig.served = {
      seen.append(rig.loop.now)
      seen.append(rig.loop.now)
    }
    let before = Environment.monotonicMicroseconds
    try rig.request()
    #expect(try rig.loop.runOnce(timeout: Self.patience))
    #expect(seen.count == 2)
    #expect(seen[0] == seen[1])
    #expect(seen[0] >= before)
  }
}
