/// Subscribers of the fan-out channel (badged: `WATCH bench`; Redis: `SUBSCRIBE bench`) on one
/// poller, tokens 0..<count. Each remembers the newest value it has read, so the runs can
/// tell when the last of them has seen a change. With `patterns`, each watches that many
/// prefix patterns of its own instead (`WATCH w<token>-0:* w<token>-1:* …`), which no channel
/// of the other runs matches: what a change costs to match against them all.
final class WatcherGroup {
  let count: Int
  private let wire: Wire
  private let poller: Poller
  private var connections: [Connection] = []
  private var latest: [Int]
  private var subscribed: [Bool]
  private(set) var subscribedCount = 0
  private var target = Int.max
  /// How many watchers have read `target` (or later) so far.
  private(set) var reached = 0

  init(count: Int, socket: String, wire: Wire, poller: Poller, patterns: Int = 0) {
    self.count = count
    self.wire = wire
    self.poller = poller
    latest = Array(repeating: -1, count: count)
    subscribed = Array(repeating: false, count: count)
    for token in 0..<count {
      let request =
        patterns == 0
        ? wire.subscribe(Wire.fanOutChannel)
        : wire.subscribe((0..<patterns).map { "w\(token)-\($0):*" }.joined(separator: " "))
      let fd = connectUnix(socket, nonBlocking: false)
      if !sendAll(fd, request) { fail("watcher \(token): subscribe failed") }
      setNonBlocking(fd)
      let connection = Connection(fd: fd, token: token)
      poller.add(fd, token: token)
      connections.append(connection)
    }
  }

  var allSubscribed: Bool { subscribedCount == count }
  var allReached: Bool { reached == count }

  /// Sets the value every watcher must read before `allReached`.
  func expect(_ value: Int) {
    target = value
    reached = latest.reduce(0) { $0 + ($1 >= value ? 1 : 0) }
  }

  /// Reads what watcher `token` has been sent. Until its subscription is in place every line is
  /// read (an error reply, such as `ERR busy`, ends the run); afterwards only the newest value.
  func handle(_ token: Int) {
    let connection = connections[token]
    switch connection.read() {
    case .empty: return
    case .closed: fail("the server closed watcher \(token)'s connection")
    case .data: break
    }
    var value: Int?
    if subscribed[token] {
      value = connection.consumeLatest(wire.watchedValue)
    } else {
      connection.consumeLines { line in
        if wire.classify(line) == .error { fail("watcher \(token): \(String(decoding: line, as: UTF8.self))") }
        if let seen = wire.watchedValue(line) { value = seen }
        if !subscribed[token] && wire.isSubscribed(line) {
          subscribed[token] = true
          subscribedCount += 1
        }
      }
    }
    if let value, value > latest[token] {
      if latest[token] < target && value >= target { reached += 1 }
      latest[token] = value
    }
  }

  /// Runs the poller until every watcher's subscription is in place.
  func waitUntilSubscribed(_ deadline: Deadline) {
    while !allSubscribed {
      poller.wait(timeoutMs: 1000) { token, _ in if token < count { handle(token) } }
      deadline.check("\(subscribedCount) of \(count) watchers subscribed")
    }
  }
}
