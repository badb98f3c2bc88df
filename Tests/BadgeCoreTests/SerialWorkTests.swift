import BadgeCore
import Testing

/// Work that arrives while other work runs waits for it, in order.
@Suite struct SerialWorkTests {
  @Test func workArrivingInsideOtherWorkRunsAfterItInOrder() {
    let work = SerialWork()
    var log: [String] = []
    work.run {
      log.append("perform begins")
      work.run {
        log.append("lost connection")
        work.run { log.append("reconnect") }
        log.append("lost connection ends")
      }
      work.run { log.append("second event") }
      log.append("perform ends")
    }
    #expect(
      log == [
        "perform begins", "perform ends", "lost connection", "lost connection ends", "second event", "reconnect",
      ])
    #expect(!work.isRunning)
    work.run { log.append("later") }
    #expect(log.last == "later")
  }
}
