import Foundation
import Testing

/// Do-not-disturb changed while no bridge was running, with the real daemon, the built
/// `badged-mqtt` and Debian's mosquitto: the bridge that starts later publishes the change as
/// it was made, unless another machine made a greater one since, which then wins here and is
/// published as this machine's.
@Suite struct DNDWhileAwayTests {
  /// The bridge of `desktop`, sharing do-not-disturb, started against `daemon`.
  static func startBridge(_ broker: Broker, _ daemon: DaemonProcess) throws -> (Child, String) {
    let config = try BridgeProgramTests.config(broker, extra: "dnd = shared")
    let log = broker.folder.file("bridge-\(UUID().uuidString.prefix(6)).log")
    let child = try Child(
      [Binaries.badgedMQTT.path, "--config", config, "--socket", daemon.socket, "--log-level", "debug"],
      environment: Child.environment(), stderr: .file(log))
    return (child, log)
  }

  /// A broker, and a daemon whose do-not-disturb was turned on while no bridge ran, at `at`.
  static func dndTurnedOnWithoutABridge() throws -> (Broker, DaemonProcess, UInt64) {
    try Binaries.check()
    let broker = try Broker()
    let daemon = try DaemonProcess()
    let since = wallMilliseconds()
    return (broker, daemon, try dndStamp(try daemon.client().request("DND on").first, since: since))
  }

  @Test func aChangeMadeWhileTheBridgeWasAwayIsPublishedWhenItStarts() throws {
    let (broker, daemon, at) = try Self.dndTurnedOnWithoutABridge()
    let phone = try broker.subscriber(["badged/ana/host/desktop/dnd"], as: "phone")
    let (bridge, log) = try Self.startBridge(broker, daemon)
    defer {
      bridge.signal(SIGTERM)
      bridge.wait()
    }
    let published = #"{"on":true,"until":0,"at":\#(at),"host":"desktop"}"#
    #expect(phone.wait { $0.hasSuffix("|" + published) }, "\(phone.lines) \(BridgeProgramTests.text(log))")
    // Retained: a machine that comes later has it too.
    let laptop = try broker.subscriber(["badged/ana/host/desktop/dnd"], as: "laptop")
    #expect(laptop.wait { $0 == "badged/ana/host/desktop/dnd|1|" + published }, "\(laptop.lines)")
  }

  @Test func aNewerChangeFromElsewhereWinsOverOneMadeWhileTheBridgeWasAway() throws {
    let (broker, daemon, at) = try Self.dndTurnedOnWithoutABridge()
    let newer = #"{"on":false,"until":0,"at":\#(at + 1000),"host":"laptop"}"#
    try broker.publish("badged/ana/host/laptop/dnd", newer, as: "laptop", retain: true)
    let watcher = try daemon.client()
    #expect(try watcher.request("WATCH nothing").last == "OK watching")
    let (bridge, log) = try Self.startBridge(broker, daemon)
    defer {
      bridge.signal(SIGTERM)
      bridge.wait()
    }
    #expect(
      try watcher.readLine(timeout: 10) == "EVENT * dnd=0 left=0 from=laptop at=\(at + 1000)",
      "\(BridgeProgramTests.text(log))")
    // Taken here, the newer change is this machine's state too.
    let phone = try broker.subscriber(["badged/ana/host/desktop/dnd"], as: "phone")
    #expect(phone.wait { $0.hasSuffix("|" + newer) }, "\(phone.lines)")
  }
}
