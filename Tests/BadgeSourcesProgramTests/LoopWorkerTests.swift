import BadgeSourcesProgram
import BadgeSystem
import Glibc
import Testing

/// Work that may block, on a thread of its own, with its results back on the loop.
@Suite struct LoopWorkerTests {
  @Test func resultsArriveOnTheLoopInOrder() throws {
    let loop = try EventLoop()
    let worker = try LoopWorker(loop: loop, state: 0)
    defer { worker.stop() }
    let loopThread = pthread_self()
    var seen: [String] = []
    for n in 1...3 {
      worker.submit(
        { total -> Int in
          total += n
          return total
        },
        done: { total in
          seen.append("\(total) on the loop: \(pthread_equal(pthread_self(), loopThread) != 0)")
          if seen.count == 3 { loop.exit(code: 0) }
        })
    }
    let guardTimer = try loop.addTimer(at: loop.now + 5_000_000) { loop.exit(code: 1) }
    #expect(try loop.run() == 0)
    guardTimer.cancel()
    #expect(seen == ["1 on the loop: true", "3 on the loop: true", "6 on the loop: true"])
  }

  @Test func aJobWaitingForAHeldLockDoesNotStallTheLoop() throws {
    var template = Array("/tmp/badged-worker.XXXXXX".utf8CString)
    let holder = mkstemp(&template)
    let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    defer {
      close(holder)
      unlink(path)
    }
    // A writer holds the lock, as notmuch new holds a database's.
    #expect(flock(holder, LOCK_EX) == 0)
    let loop = try EventLoop()
    let worker = try LoopWorker(loop: loop, state: ())
    defer { worker.stop() }
    var events: [String] = []
    worker.submit(
      { _ -> Bool in
        let fd = open(path, O_RDWR)
        defer { close(fd) }
        return flock(fd, LOCK_EX) == 0  // blocks until the holder lets go
      },
      done: { locked in
        events.append("locked: \(locked)")
        loop.exit(code: 0)
      })
    var ticks = 0
    var timer: TimerSource?
    timer = try loop.addTimer(at: loop.now + 10_000) {
      ticks += 1
      events.append("tick \(ticks)")
      if ticks < 3 {
        timer?.schedule(at: loop.now + 10_000)
      } else {
        flock(holder, LOCK_UN)
      }
    }
    let guardTimer = try loop.addTimer(at: loop.now + 5_000_000) { loop.exit(code: 1) }
    #expect(try loop.run() == 0)
    guardTimer.cancel()
    #expect(events == ["tick 1", "tick 2", "tick 3", "locked: true"])
  }
}
