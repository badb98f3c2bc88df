import BadgeMesh
import BadgeMosquitto
import Foundation
import Testing

/// What is published on the broker cannot fill a machine: 100,000 retained states of channels
/// no machine shares, from an account that may write them, are mirrored up to the daemon's
/// `max_mirrored` alone, and a local client's new channel still counts, also after the bridge
/// connected again (the states are retained, so it hears them all again). The daemon keeps
/// 100 channels of its clients' (`max_channels`), far fewer than the mirrors' 1000: none of
/// the mirrors takes one of them.
@Suite struct BrokerRoomTests {
  /// How many junk states go to the broker.
  static let junkStates = 100_000
  /// The daemon's `[limits] max_mirrored` by default.
  static let maxMirrored = 1000

  /// The retained state topic of `channel`: named here alone, so the layout of topics changes
  /// in one place.
  static func stateTopic(_ channel: String) -> String { "badged/ana/host/server/ch/\(channel)/state" }

  /// Publishes `count` retained states of channels `junk0`, `junk1`, … as `server`, and waits
  /// until the broker has taken every one (a marker published after them has come back).
  static func publishJunk(_ broker: Broker, count: Int) throws {
    let driver = try LinkDriver(broker: broker)
    let server = try driver.session("server", driver.options("server"))
    #expect(driver.connect(server) == "server connected")
    server.subscribe(["badged/ana/host/server/sync"])
    let claimed = Int(Date().timeIntervalSince1970 * 1000)
    let payload = Array(
      #"{"count":1,"label":"1","dot":false,"muted":false,"unseen":1,"total":1,"seq":1,"owner":"server","pulse":0,"claimed":\#(claimed)}"#
        .utf8)
    for i in 0..<count {
      #expect(server.publish(MeshMessage(topic: stateTopic("junk\(i)"), payload: payload, retain: true)))
    }
    #expect(driver.sync(server, through: "server", topic: "badged/ana/host/server/sync", timeout: 120))
    server.disconnect()
  }

  /// The channels the daemon mirrors, from `LIST`.
  static func mirrored(_ daemon: DaemonProcess) throws -> Int {
    try daemon.client().request("LIST").filter { $0.hasPrefix("STATE ") && $0.contains(" owner=server ") }.count
  }

  @Test func junkOnTheBrokerTakesOnlyTheMirrorsRoomAndALocalChannelStillCounts() throws {
    try Binaries.check()
    let broker = try Broker()
    try Self.publishJunk(broker, count: Self.junkStates)
    let daemon = try DaemonProcess(config: "[limits]\nmax_channels = 100\n")
    let config = try BridgeProgramTests.config(broker, share: "mylocal")
    let refused = "badged has no room for more mirrored channels"
    for connection in 1...2 {
      // The bridge is told no more fit once every mirror the daemon has room for is in.
      let (bridge, log) = try BridgeProgramTests.start(broker, config: config, socket: daemon.socket)
      #expect(waitUntil(timeout: 60) { BridgeProgramTests.text(log).contains(refused) }, "\(daemon.log)")
      let mirrored = try Self.mirrored(daemon)
      #expect(mirrored == Self.maxMirrored, "\(BridgeProgramTests.text(log).suffix(2000))")
      let client = try daemon.client()
      let incremented = try client.request("INCR mylocal")
      #expect(incremented.last == "OK", "\(incremented)")
      #expect(incremented.first.map { field($0, "count") } == String(connection))
      // Said once by the bridge, however many channels were refused.
      let said = BridgeProgramTests.text(log).components(separatedBy: refused).count - 1
      #expect(said == 1, "\(BridgeProgramTests.text(log))")
      bridge.signal(SIGTERM)
      #expect(bridge.wait() == 0)
    }
    // The daemon logs its refusals once per interval, with their count, not once each.
    let refusals = daemon.log.split(separator: "\n").filter { $0.contains("[limits] max_mirrored") }
    #expect((1...4).contains(refusals.count), "\(refusals)")
    #expect(refusals.first?.hasPrefix("<4>Not showing 'junk") == true, "\(refusals)")
    #expect(try Self.mirrored(daemon) == Self.maxMirrored)
  }
}
