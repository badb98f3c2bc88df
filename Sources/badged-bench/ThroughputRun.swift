import Glibc

/// INCR (or Redis PUBLISH) throughput: `clients` connections, each with a window of `pipeline`
/// requests in flight, sending the next window once the last reply of one arrived (as
/// `redis-benchmark -P` does). `threads` event loops (default one) share the connections, so a
/// handful of threads drives any number of clients. Afterwards the counts are read back and
/// must have risen by exactly the number of INCRs acknowledged. With `--rate N` the windows are
/// spread so that at most N INCRs a second are sent. With `--owner-socket` the channels are
/// mirrored from another daemon: the counts are read there, until the owner has applied every
/// write forwarded to it (`applied_per_sec`).
struct ThroughputRun {
  let options: Options
  let wire: Wire

  func run() {
    let names = (0..<options.channels).map { Wire.channelName($0, of: options.channels) }
    let check = CountCheck(socket: options.ownerSocket ?? options.socket, wire: wire)
    let verify = options.verify && !options.publish
    let before = verify ? check.sum(names) : 0
    let requests = names.map { options.publish ? wire.publish($0, value: 1) : wire.incr($0) }
    let perClient = options.requests / options.clients
    let workers = (0..<options.threads).map { t in
      let clients = (options.clients * t / options.threads)..<(options.clients * (t + 1) / options.threads)
      return ThroughputWorker(
        options: options, wire: wire, clients: clients, perClient: perClient, requests: requests,
        idChannels: options.ids ? names : nil)
    }
    let deadline = Deadline(seconds: options.timeoutSeconds)
    let load = GeneratorLoad()
    let started = monotonicNanos()
    if workers.count == 1 {
      workers[0].run(deadline)
    } else {
      workers.map { worker in WorkerThread { worker.run(deadline) } }.forEach { $0.join() }
    }
    let elapsed = monotonicNanos() - started
    let generator = load.json
    var latencies = Latencies()
    for worker in workers { latencies.append(contentsOf: worker.latencies) }
    if let error = workers.compactMap(\.firstError).first {
      fail("\(workers.map(\.errors).reduce(0, +)) error replies, the first: \(error)")
    }
    let total = perClient * options.clients
    let command = options.publish ? "publish" : options.ids ? "incr-id" : "incr"
    var applied = ""
    if options.ownerSocket != nil {
      let at = check.waitUntil(names, sumIs: before + total, deadline) - started
      applied = ",\"applied_seconds\":\(seconds(at)),\"applied_per_sec\":\(perSecond(total, at))"
    }
    if verify { check.expect(names, before: before, increasedBy: total) }
    emit(
      "{\"mode\":\"throughput\",\"protocol\":\"\(wire.kind.rawValue)\",\"command\":\"\(command)\","
        + "\"clients\":\(options.clients),\"pipeline\":\(options.pipeline),\"channels\":\(options.channels),"
        + "\"threads\":\(options.threads),\"requests\":\(total),\"seconds\":\(seconds(elapsed)),"
        + "\"rate\":\(options.rate),\"ops_per_sec\":\(perSecond(total, elapsed))\(applied),"
        + "\(latencies.json()),\(generator),"
        + "\"verified\":\(verify)}")
  }
}

/// One event loop's share of the clients. Latency is per window: from sending it to its last
/// reply (with `pipeline` 1, the round trip of one request).
final class ThroughputWorker: @unchecked Sendable {
  private let wire: Wire
  private let poller: Poller
  private let pipeline: Int
  private let requests: [[UInt8]]
  /// The channels of `requests`, when each request carries an id of its own.
  private let idChannels: [String]?
  /// The first client's number, for ids unique across workers.
  private let firstClient: Int
  /// What every id of this run starts with: the generator's process id, so the ids of two runs
  /// never meet.
  private let idPrefix = "b\(getpid())-"
  private var sentByClient: [Int] = []
  private var connections: [Connection] = []
  private var remaining: [Int] = []
  private var outstanding: [Int] = []
  private var received: [Int] = []
  private var windowStart: [UInt64] = []
  private var nextChannel: [Int] = []
  private var scratch: [UInt8] = []
  /// With a rate: nanoseconds between two requests of this worker, the requests sent so far,
  /// when the first went, and the clients whose next window waits for its time.
  private let spacing: UInt64
  private var paced = 0
  private var pacingStart: UInt64 = 0
  private var due: [Int] = []
  private(set) var latencies = Latencies()
  private(set) var errors = 0
  private(set) var firstError: String?

  init(
    options: Options, wire: Wire, clients: Range<Int>, perClient: Int, requests: [[UInt8]], idChannels: [String]?
  ) {
    self.wire = wire
    self.pipeline = options.pipeline
    self.requests = requests
    self.idChannels = idChannels
    firstClient = clients.lowerBound
    spacing = options.rate == 0 ? 0 : UInt64(1e9 * Double(options.clients) / Double(options.rate * clients.count))
    poller = Poller(capacity: max(clients.count, 1))
    for (token, client) in clients.enumerated() {
      let connection = Connection(fd: connectUnix(options.socket, nonBlocking: true), token: token)
      poller.add(connection.fd, token: token)
      connections.append(connection)
      nextChannel.append(client)
    }
    remaining = Array(repeating: perClient, count: clients.count)
    sentByClient = Array(repeating: 0, count: clients.count)
    outstanding = Array(repeating: 0, count: clients.count)
    received = outstanding
    windowStart = Array(repeating: 0, count: clients.count)
    latencies.reserve(clients.count * (perClient / pipeline + 1))
  }

  func run(_ deadline: Deadline) {
    var finished = 0
    pacingStart = monotonicNanos()
    for i in connections.indices { if remaining[i] > 0 { next(i) } else { finished += 1 } }
    while finished < connections.count {
      poller.wait(timeoutMs: sendDue()) { token, writable in
        let connection = connections[token]
        if writable { connection.flush(poller: poller) }
        switch connection.read() {
        case .empty: return
        case .closed: fail("the server closed a connection after \(latencies.count) windows")
        case .data: break
        }
        var replies = 0
        connection.consumeLines { line in
          switch wire.classify(line) {
          case .reply: replies += 1
          case .error:
            replies += 1
            errors += 1
            if firstError == nil { firstError = String(decoding: line, as: UTF8.self) }
          case .data: break
          }
        }
        received[token] += replies
        if outstanding[token] > 0 && received[token] >= outstanding[token] {
          latencies.append(monotonicNanos() - windowStart[token])
          remaining[token] -= outstanding[token]
          outstanding[token] = 0
          received[token] = 0
          if remaining[token] > 0 { next(token) } else { finished += 1 }
        }
      }
      deadline.check("\(finished) of \(connections.count) clients finished")
    }
  }

  /// Client `i`'s next window: now, or (with a rate) once its time has come.
  private func next(_ i: Int) {
    if spacing == 0 { sendWindow(i) } else { due.append(i) }
  }

  /// Sends the waiting windows whose time has come, in turn; how long the poller may wait for
  /// the next (milliseconds, rounded up; 1000 when none waits).
  private func sendDue() -> Int32 {
    while let i = due.first {
      let at = pacingStart + UInt64(paced) * spacing
      let now = monotonicNanos()
      if at > now { return Int32((at - now + 999_999) / 1_000_000) }
      due.removeFirst()
      paced += min(pipeline, remaining[i])
      sendWindow(i)
    }
    return 1000
  }

  private func sendWindow(_ i: Int) {
    let batch = min(pipeline, remaining[i])
    scratch.removeAll(keepingCapacity: true)
    for _ in 0..<batch {
      if let idChannels {
        scratch += wire.incr(
          idChannels[nextChannel[i] % idChannels.count], id: "\(idPrefix)\(firstClient + i):\(sentByClient[i])")
        sentByClient[i] += 1
      } else {
        scratch += requests[nextChannel[i] % requests.count]
      }
      nextChannel[i] += 1
    }
    outstanding[i] = batch
    windowStart[i] = monotonicNanos()
    connections[i].send(scratch, poller: poller)
  }
}
