import BadgeNotmuch
import BadgeSourcesProgram
import BadgeSystem
import Foundation
import Testing

/// badged-sources' notmuch work on a thread of its own, against the real notmuch: a count
/// comes back on the loop, and a mark-read waiting for a writer's lock leaves the loop free.
@Suite struct NotmuchWorkerTests {
  @Test func aCountArrivesOnTheLoop() throws {
    try NotmuchFolder.with(messages: 3) { nm in
      let loop = try EventLoop()
      let worker = try NotmuchWorker(loop: loop, location: .init(config: nm.config))
      defer { worker.stop() }
      var counts: [Int] = []
      worker.count("tag:unread") { result in
        counts.append((try? result.get().count) ?? -1)
        loop.exit(code: 0)
      }
      let guardTimer = try loop.addTimer(at: loop.now + 10_000_000) { loop.exit(code: 1) }
      #expect(try loop.run() == 0)
      guardTimer.cancel()
      #expect(counts == [3])
    }
  }

  @Test func aMarkReadHeldByAWritersLockDoesNotStallTheLoop() throws {
    try NotmuchFolder.with(messages: 2) { nm in
      // A writer holds the database, as notmuch new does while it indexes.
      let writer = try NotmuchDatabase(config: nm.config, mode: .readWrite)
      let loop = try EventLoop()
      let worker = try NotmuchWorker(loop: loop, location: .init(config: nm.config))
      defer { worker.stop() }
      var events: [String] = []
      worker.markRead(["nm1@example.org"]) { result in
        events.append("marked: \((try? result.get()).map { "\($0)" } ?? "failed")")
        worker.count("tag:unread") { result in
          events.append("unread: \((try? result.get().count) ?? -1)")
          loop.exit(code: 0)
        }
      }
      var ticks = 0
      var timer: TimerSource?
      timer = try loop.addTimer(at: loop.now + 20_000) {
        ticks += 1
        events.append("tick \(ticks)")
        if ticks < 3 { timer?.schedule(at: loop.now + 20_000) } else { writer.close() }
      }
      let guardTimer = try loop.addTimer(at: loop.now + 10_000_000) { loop.exit(code: 1) }
      #expect(try loop.run() == 0)
      guardTimer.cancel()
      #expect(events == ["tick 1", "tick 2", "tick 3", "marked: []", "unread: 1"])
      #expect(try nm.notmuch("count", "tag:unread") == "1")
    }
  }
}
