import Foundation
import Testing

/// Writes to a mirrored channel survive whatever stops between the mirror taking them and the
/// owner applying them: a kill -9 of the mirror's bridge or of its daemon, a broker restarted
/// without persistence, a broker down for the whole run of writes; each is applied exactly
/// once. And an owner whose bridge is killed shows stale on every mirror until it is back.
@Suite struct MeshRecoveryTests {
  /// The owner `desktop` (sharing `mail`, at 1) and its mirror `laptop`.
  static func pair(_ network: MeshNetwork) throws -> (desktop: Machine, laptop: Machine) {
    let (desktop, mirrors) = try network.ownerAndMirrors(["laptop"])
    return (desktop, mirrors[0])
  }

  /// Waits until `count` (of `total`) is on both machines, nothing pending on the mirror; then
  /// one more write from the mirror, through the same path, shows nothing else was on its way.
  static func settle(_ desktop: Machine, _ laptop: Machine, count: Int, total: Int) throws {
    try desktop.waitFor("mail", ["count": "\(count)", "total": "\(total)"])
    try laptop.waitFor("mail", ["count": "\(count)", "total": "\(total)", "stale": "0", "pending": nil])
    try laptop.request("INCR mail")
    try desktop.waitFor("mail", ["count": "\(count + 1)", "total": "\(total + 1)"])
    try laptop.waitFor("mail", ["count": "\(count + 1)", "total": "\(total + 1)", "pending": nil])
  }

  @Test func writesTakenBeforeTheMirrorsBridgeIsKilledAreAppliedOnce() throws {
    let network = try MeshNetwork()
    let (desktop, laptop) = try Self.pair(network)
    laptop.freezeBridge()
    for _ in 0..<3 { try laptop.request("INCR mail") }
    try laptop.waitFor("mail", ["count": "4", "pending": "1"])
    laptop.killBridge()
    try laptop.startBridge()
    try Self.settle(desktop, laptop, count: 4, total: 4)
  }

  /// The link cut so the writes cannot be delivered, then the mirror's daemon killed: its
  /// bridge may have sent them into the dead connection, or not; either way once. The clear
  /// takes only what the mirror showed: the owner's own increase meanwhile stays.
  @Test func writesTakenBeforeTheMirrorsDaemonIsKilledAreAppliedOnce() throws {
    let network = try MeshNetwork()
    let (desktop, laptop) = try Self.pair(network)
    try laptop.cut()
    try laptop.request("INCR mail 2")
    try laptop.request("CLEAR mail")
    try desktop.request("INCR mail")
    laptop.killDaemon()
    try laptop.startDaemon()
    try laptop.waitFor("mail", ["count": "0", "total": "3", "pending": "1"])
    try laptop.heal()
    try Self.settle(desktop, laptop, count: 1, total: 4)
  }

  /// The writes reach the broker while the owner's bridge is away (queued for its session),
  /// and the broker then restarts without persistence, losing them: the mirror sends them again.
  @Test func writesABrokerLostInARestartAreSentAgainAndAppliedOnce() throws {
    let network = try MeshNetwork()
    let (desktop, laptop) = try Self.pair(network)
    desktop.killBridge()
    try laptop.waitFor("mail", ["stale": "1"])
    try laptop.request("INCR mail 2")
    network.broker.stop()
    try network.broker.start()
    try desktop.startBridge()
    try Self.settle(desktop, laptop, count: 3, total: 3)
  }

  @Test func writesMadeWhileTheBrokerIsDownAreAppliedOnceItIsBack() throws {
    let network = try MeshNetwork()
    let (desktop, laptop) = try Self.pair(network)
    network.broker.stop()
    try laptop.waitFor("mail", ["stale": "1"])
    try laptop.request("INCR mail 3")
    try laptop.request("CLEAR mail")
    try desktop.request("INCR mail")
    try laptop.request("INCR mail")
    try network.broker.start()
    // 1, the desktop's 1, the laptop's 3 (5 in all), cleared up to the laptop's 4, and 1 more.
    try Self.settle(desktop, laptop, count: 2, total: 6)
  }

  /// kill -9 of the owner's bridge: the broker sends its last will, and every mirror shows the
  /// channel stale (also in `badgectl list`); started again, fresh and at the owner's count.
  /// Likewise kill -9 of the owner's daemon, which its bridge reports.
  @Test func anOwnerWhoseBridgeIsKilledIsStaleEverywhereUntilItIsBack() throws {
    let network = try MeshNetwork()
    let (desktop, laptop) = try Self.pair(network)
    let server = try Machine("server", on: network)
    try server.waitFor("mail", ["count": "1", "owner": "desktop", "stale": "0"])
    desktop.killBridge()
    for mirror in [laptop, server] { try mirror.waitFor("mail", ["count": "1", "stale": "1"]) }
    // (It may still be pulsing from the owner's increase.)
    let listed = try badgectl(["list"], socket: laptop.socket).stdout
    #expect(listed.replacingOccurrences(of: " pulsing", with: "") == "mail 1 on desktop offline\n", "\(listed)")
    try desktop.request("INCR mail 2")
    try desktop.startBridge()
    for mirror in [laptop, server] {
      try mirror.waitFor("mail", ["count": "3", "total": "3", "stale": "0", "since": nil])
    }
    // Its daemon killed instead: the bridge says the machine is offline, until it is back.
    desktop.killDaemon()
    for mirror in [laptop, server] { try mirror.waitFor("mail", ["count": "3", "stale": "1"]) }
    try desktop.startDaemon()
    try desktop.request("DECR mail")
    for mirror in [laptop, server] {
      try mirror.waitFor("mail", ["count": "2", "total": "3", "stale": "0", "since": nil])
    }
  }
}
