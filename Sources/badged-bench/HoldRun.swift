/// Idle watchers held for a memory reading, or (with `--patterns`) for the cost of matching
/// changes against their patterns: subscribes `watchers` connections, prints one JSON line
/// once all are in place, then keeps reading (and discarding) until it is terminated.
/// `bench/run` reads the server's RSS, or times changes, in between.
struct HoldRun {
  let options: Options
  let wire: Wire

  func run() -> Never {
    let poller = Poller(capacity: max(options.watchers, 1))
    let watchers = WatcherGroup(
      count: options.watchers, socket: options.socket, wire: wire, poller: poller, patterns: options.patterns)
    watchers.waitUntilSubscribed(Deadline(seconds: options.timeoutSeconds))
    emit(
      "{\"mode\":\"hold\",\"protocol\":\"\(wire.kind.rawValue)\",\"watchers\":\(options.watchers),"
        + "\"patterns\":\(options.patterns),\"ready\":true}"
    )
    while true { poller.wait(timeoutMs: -1) { token, _ in watchers.handle(token) } }
  }
}
