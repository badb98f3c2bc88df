import Glibc

/// Fan-out latency: `watchers` subscribers and one writer. One change at a time (badged:
/// `INCR bench`; Redis: `PUBLISH bench v<i>`), timed from sending it to the moment the last
/// watcher has read it; the next change goes once every watcher has it and the writer has its
/// reply. badged's count must have risen by exactly `changes`; each Redis PUBLISH must report
/// every subscriber.
extension FanOutStage {
  func measureLatency() {
    let channel = Wire.fanOutChannel
    var latencies = Latencies()
    let load = GeneratorLoad()
    let started = monotonicNanos()
    for change in 1...options.changes {
      watchers.expect(wire.kind == .badged ? base + change : change)
      let sent = monotonicNanos()
      writer.send(wire.kind == .badged ? wire.incr(channel) : wire.publish(channel, value: change))
      var lastRead: UInt64? = watchers.allReached ? sent : nil
      while lastRead == nil || writer.replies < change {
        poller.wait(timeoutMs: 1000) { token, writable in
          if token == writer.token {
            writer.handle(writable: writable)
          } else {
            watchers.handle(token)
            if lastRead == nil && watchers.allReached { lastRead = monotonicNanos() }
          }
        }
        deadline.check("change \(change): \(watchers.reached) of \(watchers.count) watchers have it")
      }
      // With no watchers, the writer's reply is the change's arrival.
      latencies.append((watchers.count == 0 ? monotonicNanos() : lastRead!) - sent)
      if options.gapMs > 0 { usleep(UInt32(options.gapMs * 1000)) }
    }
    let elapsed = monotonicNanos() - started
    let generator = load.json
    if wire.kind == .badged { check.expect([channel], before: base, increasedBy: options.changes) }
    emit(
      "{\"mode\":\"fanout\",\"protocol\":\"\(wire.kind.rawValue)\",\"watchers\":\(options.watchers),"
        + "\"changes\":\(options.changes),\"gap_ms\":\(options.gapMs),\"mirrored\":\(options.watchSocket != nil),"
        + "\"seconds\":\(seconds(elapsed)),\(latencies.json()),\(generator),\"verified\":true}"
    )
  }
}

/// What both fan-out runs start from: the channel's count before (badged), the watchers
/// subscribed and the writer connected, on one poller.
struct FanOutStage {
  let options: Options
  let wire: Wire
  let check: CountCheck
  let base: Int
  let deadline: Deadline
  let poller: Poller
  let watchers: WatcherGroup
  let writer: Writer

  init(options: Options, wire: Wire) {
    self.options = options
    self.wire = wire
    check = CountCheck(socket: options.socket, wire: wire)
    base = wire.kind == .badged ? check.sum([Wire.fanOutChannel]) : 0
    deadline = Deadline(seconds: options.timeoutSeconds)
    poller = Poller(capacity: options.watchers + 1)
    watchers = WatcherGroup(
      count: options.watchers, socket: options.watchSocket ?? options.socket, wire: wire, poller: poller)
    writer = Writer(
      socket: options.socket, wire: wire, token: options.watchers, poller: poller, subscribers: options.watchers)
    watchers.waitUntilSubscribed(deadline)
  }
}

/// The writer of the fan-out runs: counts its replies; a Redis PUBLISH reply must name every
/// subscriber, and an error reply ends the run.
final class Writer {
  let token: Int
  private let wire: Wire
  private let poller: Poller
  private let connection: Connection
  private let subscribers: Int
  private(set) var replies = 0

  init(socket: String, wire: Wire, token: Int, poller: Poller, subscribers: Int) {
    self.token = token
    self.wire = wire
    self.poller = poller
    self.subscribers = subscribers
    connection = Connection(fd: connectUnix(socket, nonBlocking: true), token: token)
    poller.add(connection.fd, token: token)
  }

  func send(_ bytes: [UInt8]) { connection.send(bytes, poller: poller) }

  /// Reads and counts replies; returns how many arrived.
  @discardableResult
  func handle(writable: Bool) -> Int {
    if writable { connection.flush(poller: poller) }
    switch connection.read() {
    case .empty: return 0
    case .closed: fail("the server closed the writer's connection after \(replies) replies")
    case .data: break
    }
    var arrived = 0
    connection.consumeLines { line in
      switch wire.classify(line) {
      case .error: fail("writer: \(String(decoding: line, as: UTF8.self))")
      case .data: return
      case .reply:
        if wire.kind == .redis, Wire.number(line, at: 1) != subscribers {
          fail("PUBLISH reached \(String(decoding: line, as: UTF8.self)) subscribers, not \(subscribers)")
        }
        arrived += 1
      }
    }
    replies += arrived
    return arrived
  }
}
