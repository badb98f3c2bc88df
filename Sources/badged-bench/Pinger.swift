import Glibc
import Synchronization

/// A fresh client, again and again on a thread of its own: connect, PING, read the reply,
/// close, wait `intervalMs`. What a status bar's one-shot command meets during a burst.
final class Pinger: @unchecked Sendable {
  private let socket: String
  private let wire: Wire
  private let intervalMs: Int
  private let stopped = Atomic<Bool>(false)
  private var latencies = Latencies()
  private var thread: WorkerThread?

  init(socket: String, wire: Wire, intervalMs: Int) {
    self.socket = socket
    self.wire = wire
    self.intervalMs = intervalMs
    thread = WorkerThread { [self] in loop() }
  }

  private func loop() {
    let ping = wire.ping
    while !stopped.load(ordering: .relaxed) {
      let started = monotonicNanos()
      let fd = connectUnix(socket, nonBlocking: false)
      if !sendAll(fd, ping) { fail("PING: send failed") }
      let reply = BlockingLineReader(fd: fd).next()
      close(fd)
      if reply != (wire.kind == .redis ? "+PONG" : "OK pong") { fail("PING: unexpected reply \(reply)") }
      latencies.append(monotonicNanos() - started)
      usleep(UInt32(intervalMs * 1000))
    }
  }

  /// Stops after the PING under way and returns every latency.
  func stop() -> Latencies {
    stopped.store(true, ordering: .relaxed)
    thread?.join()
    thread = nil
    return latencies
  }
}
