import Foundation
import Testing

/// Three machines on a real broker, each in a network namespace of its own: a change on the
/// owner reaches the watchers of its mirrors, a write on a mirror reaches the owner and every
/// watcher, with exact counts; and a burst of 10,000 changes ends at the owner's count on
/// every mirror, its states coalesced on the way.
@Suite struct MeshBasicsTests {
  @Test func changesOnTheOwnerAndOnItsMirrorsReachEveryWatcher() throws {
    let network = try MeshNetwork()
    let (desktop, mirrors) = try network.ownerAndMirrors(["laptop", "server"])
    let (laptop, server) = (mirrors[0], mirrors[1])
    let watchers = try [desktop, laptop, server].map { try $0.watcher("mail") }

    // The owner's change, on the watchers of both mirrors.
    try desktop.request("INCR mail 2")
    for watcher in watchers.dropFirst() {
      try watcher.waitFor("mail", ["count": "3", "total": "3", "owner": "desktop", "stale": "0", "pending": nil])
    }

    // A clear on a mirror: at once there, pending; then on the owner, and back on every watcher.
    let cleared = try laptop.request("CLEAR mail")
    #expect(field(cleared[0], "count") == "0" && field(cleared[0], "pending") == "1", "\(cleared)")
    try watchers[0].waitFor("mail", ["count": "0", "total": "3", "owner": nil])
    try watchers[1].waitFor("mail", ["count": "0", "total": "3", "owner": "desktop", "pending": nil])
    try watchers[2].waitFor("mail", ["count": "0", "total": "3", "owner": "desktop", "pending": nil])

    // The third machine's write, likewise (the owner forgot mail at 0; made anew, its total
    // continues above the 3 it had, so that a late clear of what was seen clears none of the 5).
    try server.request("INCR mail 5")
    try watchers[0].waitFor("mail", ["count": "5", "total": "8", "owner": nil])
    try watchers[1].waitFor("mail", ["count": "5", "total": "8", "pending": nil])
    try watchers[2].waitFor("mail", ["count": "5", "total": "8", "pending": nil])
    for machine in [desktop, laptop, server] { try machine.waitFor("mail", ["count": "5", "total": "8"]) }
  }

  /// 10,000 INCR on the owner, as fast as one client sends them (pipelined, a window at a
  /// time): every mirror ends at exactly the owner's count, and the owner published at most
  /// one state every 50 ms on the way (docs/MQTT.md), the last one the latest.
  @Test func tenThousandIncrementsOnTheOwnerEndAtItsCountOnEveryMirror() throws {
    let network = try MeshNetwork()
    let (desktop, mirrors) = try network.ownerAndMirrors(["laptop", "server"])
    let (laptop, server) = (mirrors[0], mirrors[1])
    let phone = try network.join("phone")
    let states = try network.broker.subscriber(
      ["badged/ana/host/desktop/ch/mail/state"], as: "phone", launcher: phone.launcher)
    #expect(states.wait(timeout: Machine.patience) { $0.hasPrefix("badged/ana/host/desktop/ch/mail/state|") })

    let client = try RawClient(path: desktop.socket)
    let started = Date()
    let window = 200
    for _ in 0..<(10_000 / window) {
      try client.send(String(repeating: "INCR mail\n", count: window))
      var answered = 0
      while answered < window {
        guard let line = try client.readLine() else { throw TestFailure("badged closed the connection") }
        if line.hasPrefix("ERR") { throw TestFailure("INCR refused: \(line)") }
        if line.hasPrefix("OK") { answered += 1 }
      }
    }
    try desktop.waitFor("mail", ["count": "10001", "total": "10001"])
    for mirror in [laptop, server] {
      try mirror.waitFor("mail", ["count": "10001", "total": "10001", "owner": "desktop", "stale": "0"])
    }
    #expect(states.wait(timeout: Machine.patience) { $0.contains("\"count\":10001,") })
    // At most one state per 50 ms from the first INCR to the last state's arrival (and one
    // that may have gone out just before: the end of the first INCR's pulse window).
    let elapsed = Date().timeIntervalSince(started)
    let live = states.lines.filter { $0.hasPrefix("badged/ana/host/desktop/ch/mail/state|0|") }
    let published = live.prefix { !$0.contains("\"count\":10001,") }.count + 1
    #expect(published <= Int(elapsed / 0.05) + 2, "\(published) states in \(elapsed) s")
  }
}
