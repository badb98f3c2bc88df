import Foundation
import Testing

/// Who may change what, between machines: the broker's ACL keeps a read-only phone's writes
/// out, the first machine to claim a channel keeps it when a second one shares it too, and a
/// machine the broker refuses (a wrong password) or cannot be trusted by (another CA) says so
/// in `badgectl mqtt` while the others go on. (A password file others can read is refused at
/// start: BridgeProgramTests.)
@Suite struct MeshRightsTests {
  /// The payloads of the `badged/ana/host/<any host>/ch/<channel>/state` messages a subscriber saw.
  static func states(_ subscriber: Subscriber, _ channel: String) -> [String] {
    subscriber.lines.compactMap { line in
      let parts = line.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
      guard parts.count == 3, parts[0].hasPrefix("badged/ana/host/"), parts[0].hasSuffix("/ch/\(channel)/state")
      else { return nil }
      return String(parts[2])
    }
  }

  @Test func theReadOnlyPhonesWritesAreRefusedByTheBroker() throws {
    let network = try MeshNetwork()
    let (desktop, mirrors) = try network.ownerAndMirrors(["laptop"], count: 2)
    let laptop = mirrors[0]
    let phone = try network.join("phone")
    let broker = network.broker
    let watcher = try broker.subscriber(
      ["badged/ana/host/+/ch/mail/state"], as: "phone", launcher: phone.launcher)
    #expect(watcher.wait(timeout: Machine.patience) { $0.hasPrefix("badged/ana/host/desktop/ch/mail/state|1|") })
    try broker.publish(
      "badged/ana/ch/mail/cmd", #"{"op":"incr","n":5,"id":"phone:1:1"}"#, as: "phone", launcher: phone.launcher,
      check: false)
    try broker.publish(
      "badged/ana/ch/mail/cmd", #"{"op":"clear","id":"phone:1:2"}"#, as: "phone", launcher: phone.launcher,
      check: false)
    // A state in the owner's name, or in the phone's own: neither is the phone's to write.
    for (topic, owner) in [
      ("badged/ana/host/desktop/ch/mail/state", "desktop"), ("badged/ana/host/phone/ch/mail/state", "phone"),
    ] {
      try broker.publish(
        topic,
        #"{"count":99,"label":"99","dot":false,"muted":false,"unseen":99,"total":99,"seq":99,"owner":"\#(owner)","pulse":0,"claimed":1704067200000}"#,
        as: "phone", retain: true, launcher: phone.launcher, check: false)
    }
    // The same write from a machine with the right goes through, after the phone's.
    try broker.publish(
      "badged/ana/ch/mail/cmd", #"{"op":"incr","n":5,"id":"laptop:script:1"}"#, as: "laptop",
      launcher: laptop.link.launcher)
    try desktop.waitFor("mail", ["count": "7", "total": "7"])
    try laptop.waitFor("mail", ["count": "7", "total": "7", "owner": "desktop", "stale": "0"])
    // The owner's state after that write came to the phone; the phone's own state never did.
    #expect(watcher.wait(timeout: Machine.patience) { $0.contains(#"|{"count":7,"#) })
    #expect(
      Self.states(watcher, "mail").allSatisfy { $0.contains(#""owner":"desktop""#) && !$0.contains(#""count":99,"#) })
    let retained = try broker.subscriber(["badged/ana/host/+/ch/mail/state"], as: "phone", launcher: phone.launcher)
    #expect(retained.wait(timeout: Machine.patience) { $0.hasPrefix("badged/ana/host/desktop/ch/mail/state|1|") })
    #expect(Self.states(retained, "mail").first?.hasPrefix(#"{"count":7,"#) == true, "\(retained.lines)")
    #expect(Self.states(retained, "mail").count == 1, "\(retained.lines)")
  }

  /// `laptop` shares `mail` too, and has a local `mail` of its own when its bridge starts:
  /// `desktop`'s earlier claim stands, on the broker and on every machine; the laptop logs
  /// that once, however often its own `mail` changes.
  @Test func aSecondMachineSharingAChannelDoesNotTakeItOver() throws {
    let network = try MeshNetwork()
    let desktop = try Machine("desktop", on: network, share: "mail")
    try desktop.request("INCR mail")
    let phone = try network.join("phone")
    let watcher = try network.broker.subscriber(
      ["badged/ana/host/+/ch/+/state"], as: "phone", launcher: phone.launcher)
    #expect(watcher.wait(timeout: Machine.patience) { $0.hasPrefix("badged/ana/host/desktop/ch/mail/state|") })

    let laptop = try Machine("laptop", on: network, share: "mail ci", start: false)
    try laptop.startDaemon()
    try laptop.request("INCR mail 7")
    try laptop.startBridge()
    for _ in 0..<3 { try laptop.request("INCR mail") }
    // The bridge takes its daemon's changes in order: once ci's state is out, mail's were seen.
    try laptop.request("INCR ci")
    #expect(
      watcher.wait(timeout: Machine.patience) { $0.hasPrefix(#"badged/ana/host/laptop/ch/ci/state|0|{"count":1,"#) })
    try desktop.request("INCR mail")
    #expect(
      watcher.wait(timeout: Machine.patience) { $0.hasPrefix(#"badged/ana/host/desktop/ch/mail/state|0|{"count":2,"#) })

    let mailStates = Self.states(watcher, "mail")
    #expect(mailStates.allSatisfy { $0.contains(#""owner":"desktop""#) }, "\(mailStates)")
    // (The owner's pulse window ending may publish a count again.)
    let counts = mailStates.map { $0.prefix(while: { $0 != "," }) }
    #expect(
      counts.enumerated().filter { $0.offset == 0 || counts[$0.offset - 1] != $0.element }.map(\.element) == [
        #"{"count":1"#, #"{"count":2"#,
      ], "\(mailStates)")
    try desktop.waitFor("mail", ["count": "2", "owner": nil])
    try laptop.waitFor("mail", ["count": "10", "owner": nil])
    let givingWay = laptop.bridgeLog.split(separator: "\n").filter { $0.contains("mail is shared by desktop") }
    #expect(
      givingWay == ["<5>mail is shared by desktop, which claimed it first; it is mirrored here instead."],
      "\(laptop.diagnostics)")
    #expect(!desktop.bridgeLog.contains("giving way"), "\(desktop.diagnostics)")
  }

  /// A machine with a wrong password and one that trusts another CA: each says why in
  /// `badgectl mqtt`, and the one that works goes on.
  @Test func aMachineTheBrokerRefusesSaysWhyWhileTheOthersGoOn() throws {
    let network = try MeshNetwork()
    let desktop = try Machine("desktop", on: network, share: "mail")
    let laptop = try Machine("laptop", on: network, caFile: network.broker.otherCAFile)
    let server = try Machine("server", on: network, password: "wrong")
    let url = network.broker.url
    for (machine, error) in [
      (laptop, "last error: certificate verify failed"), (server, "last error: Not authorized"),
    ] {
      var shown = ""
      let said = try waitUntil(timeout: Machine.patience) {
        shown = try badgectl(["mqtt"], socket: machine.socket).stdout
        return shown.contains(error)
      }
      #expect(said, "\(shown)\n\(machine.diagnostics)")
      #expect(shown.hasPrefix("bridge: host \(machine.name), not connected (broker \(url))\n"), "\(shown)")
    }
    try desktop.request("INCR mail")
    var connected = ""
    let up = try waitUntil(timeout: Machine.patience) {
      connected = try badgectl(["mqtt"], socket: desktop.socket).stdout
      return connected.hasPrefix("bridge: host desktop, connected to \(url)\n")
    }
    #expect(up, "\(connected)\n\(desktop.diagnostics)")
    for machine in [laptop, server] {
      #expect(!(try machine.request("LIST")).contains { $0.hasPrefix("STATE mail ") }, "\(machine.name)")
    }
  }
}
