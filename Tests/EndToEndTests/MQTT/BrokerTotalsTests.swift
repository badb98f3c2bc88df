import Foundation
import Testing

/// A total published on the broker cannot poison the watermarks local channels count on: one
/// no owner reached is refused, and a mirror's total, once its channel is released, leaves the
/// floor of new channels as it was, so a clear up to the total shown clears only what was
/// shown, also after a restart.
@Suite struct BrokerTotalsTests {
  /// A retained state of `a1` in `server`'s name with `total`.
  static func state(total: String) -> String {
    let claimed = Int(Date().timeIntervalSince1970 * 1000)
    return
      #"{"count":1,"label":"1","dot":false,"muted":false,"unseen":1,"total":\#(total),"seq":1,"owner":"server","pulse":0,"claimed":\#(claimed)}"#
  }

  @Test func aTotalFromTheBrokerNeverRaisesTheFloorOfNewChannels() throws {
    try Binaries.check()
    let broker = try Broker()
    let daemon = try DaemonProcess()
    let (bridge, log) = try BridgeProgramTests.start(
      broker, config: try BridgeProgramTests.config(broker, share: "mylocal"), socket: daemon.socket)
    defer {
      bridge.signal(SIGTERM)
      bridge.wait()
    }
    let topic = BrokerRoomTests.stateTopic("a1")
    // A total no owner reached is dropped by the bridge, and would be refused by the daemon.
    try broker.publish(topic, Self.state(total: "9223372036854775807"), as: "server", retain: true)
    let dropped = "Dropped a state of a1: 'total' is not a whole number from 0 to 9007199254740992."
    #expect(waitUntil { BridgeProgramTests.text(log).contains(dropped) }, "\(BridgeProgramTests.text(log))")
    // The largest one an owner may reach is mirrored; released, it leaves no floor behind.
    try broker.publish(topic, Self.state(total: "9007199254740992"), as: "server", retain: true)
    let client = try daemon.client()
    #expect(
      try waitUntil { try client.request("GET a1").first?.contains(" total=9007199254740992 owner=server ") == true })
    try broker.publish(topic, "", as: "server", retain: true)
    #expect(try waitUntil { try client.request("GET a1").first?.contains(" owner=") == false })
    let shown = try client.request("INCR a1")
    #expect(shown.first.map { field($0, "total") } == "1", "\(shown)")
    #expect(try client.request("INCR a1").last == "OK")
    let cleared = try client.request("CLEAR a1 upto=1")
    #expect(cleared.first.map { field($0, "count") } == "1", "the item after the total shown stays: \(cleared)")
    #expect(daemon.stop() == 0)
    let restarted = try DaemonProcess(folder: daemon.folder)
    let after = try restarted.client().request("GET a1")
    #expect(after.first.map { [field($0, "count"), field($0, "total")] } == ["1", "2"], "\(after)")
  }
}
