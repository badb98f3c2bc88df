import Glibc

/// Start-up to the first answer: spawns the server command, then connects and sends PING as
/// soon as the socket accepts, until the first reply; the time is from just before the spawn.
/// The server is then terminated (SIGTERM) and reaped.
struct StartupRun {
  let options: Options
  let wire: Wire

  func run() {
    let deadline = Deadline(seconds: options.timeoutSeconds)
    let started = monotonicNanos()
    let server = Spawned(options.command)
    serverToKillOnFailure = server.pid
    let answered = waitForAnswer(socket: options.socket, wire: wire, deadline: deadline) {
      if server.exited() { fail("the server exited before answering") }
    }
    server.stop()
    serverToKillOnFailure = 0
    emit(
      "{\"mode\":\"startup\",\"protocol\":\"\(wire.kind.rawValue)\","
        + "\"first_answer_ms\":\(microseconds((answered.at - started) / 1000)),"
        + "\"attempts\":\(answered.attempts)}")
  }
}

/// Connects and sends PING until the first reply that is not an error (the echo server's `OK`
/// counts) (every 200 µs while the socket refuses), and
/// returns when it came and after how many attempts. `between` runs after each refused
/// attempt (to notice a server that died); past the deadline the run fails.
func waitForAnswer(
  socket: String, wire: Wire, deadline: Deadline, between: () -> Void = {}
) -> (at: UInt64, attempts: Int) {
  var attempts = 0
  while true {
    attempts += 1
    if let fd = tryConnectUnix(socket) {
      defer { close(fd) }
      if sendAll(fd, wire.ping) {
        let reply = Array(BlockingLineReader(fd: fd).next().utf8)
        switch reply.withUnsafeBytes({ wire.classify($0) }) {
        case .reply: return (monotonicNanos(), attempts)
        case .error: break  // Redis answers `-LOADING` until its data is loaded: not an answer yet
        case .data: fail("PING: unexpected reply \(String(decoding: reply, as: UTF8.self))")
        }
      }
    }
    between()
    usleep(200)
    deadline.check("no answer on \(socket)")
  }
}
