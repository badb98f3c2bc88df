/// Fan-out under load: one writer keeps `pipeline` changes in flight until `requests` are
/// acknowledged (badged: INCRs; Redis: PUBLISHes), while `watchers` subscribers read
/// everything, and a fresh client connects every `ping-interval-ms` to send one PING. Reports
/// the writer's rate, the time until the last watcher had the last change, and the PING
/// latencies (connect included). badged's count must have risen by exactly `requests`.
extension FanOutStage {
  func measureBurst() {
    let channel = Wire.fanOutChannel
    let total = options.requests
    watchers.expect(wire.kind == .badged ? base + total : total)
    let incr = wire.incr(channel)
    var sent = 0
    var batch: [UInt8] = []
    func sendMore(_ count: Int) {
      batch.removeAll(keepingCapacity: true)
      for _ in 0..<min(count, total - sent) {
        sent += 1
        batch += wire.kind == .badged ? incr : wire.publish(channel, value: sent)
      }
      if !batch.isEmpty { writer.send(batch) }
    }
    let pinger = Pinger(socket: options.socket, wire: wire, intervalMs: options.pingIntervalMs)
    let load = GeneratorLoad()
    let started = monotonicNanos()
    sendMore(options.pipeline)
    var writerDone: UInt64?
    var lastRead: UInt64? = watchers.allReached ? started : nil
    while writerDone == nil || lastRead == nil {
      poller.wait(timeoutMs: 1000) { token, writable in
        if token == writer.token {
          sendMore(writer.handle(writable: writable))
          if writer.replies == total && writerDone == nil { writerDone = monotonicNanos() }
        } else {
          watchers.handle(token)
          if lastRead == nil && watchers.allReached { lastRead = monotonicNanos() }
        }
      }
      deadline.check(
        "\(writer.replies) of \(total) replies, \(watchers.reached) of \(watchers.count) watchers have the last change")
    }
    let generator = load.json
    let pings = pinger.stop()
    if wire.kind == .badged { check.expect([channel], before: base, increasedBy: total) }
    let writing = writerDone! - started
    emit(
      "{\"mode\":\"fanout-load\",\"protocol\":\"\(wire.kind.rawValue)\",\"watchers\":\(options.watchers),"
        + "\"requests\":\(total),\"pipeline\":\(options.pipeline),\"seconds\":\(seconds(writing)),"
        + "\"ops_per_sec\":\(perSecond(total, writing)),\"last_watcher_seconds\":\(seconds(lastRead! - started)),"
        + "\"pings\":\(pings.count),\(pings.json(prefix: "ping_")),\(generator),\"verified\":true}")
  }
}
