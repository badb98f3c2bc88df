import Foundation
import Testing

/// Ownership the broker enforces (contrib/mosquitto/acl): an authenticated machine, the laptop,
/// forges retained states for the desktop's `mail` everywhere it can think of. Where the ACL
/// keeps it out (the old shared topic, the desktop's own subtree) the broker refuses the publish
/// and retains nothing; under the laptop's own subtree, where it may publish, every bridge
/// refuses a state that names another owner or a claim no machine could have made. The desktop
/// keeps the channel, the mirror keeps the real count, and a mirror's write is delivered.
@Suite struct MeshOwnershipTests {
  static func forged(owner: String, claimed: Int) -> String {
    #"{"count":999,"label":"99+","dot":false,"muted":false,"unseen":999,"total":999,"seq":1000000,"owner":"\#(owner)","pulse":0,"claimed":\#(claimed)}"#
  }

  @Test func aForgedRetainedStateDoesNotTakeAChannelFromItsOwner() throws {
    let network = try MeshNetwork()
    let (desktop, mirrors) = try network.ownerAndMirrors(["laptop"], count: 3)
    let laptop = mirrors[0]
    let broker = network.broker
    let launcher = laptop.link.launcher

    // Where only the desktop may write: the broker says no to the laptop (MQTT 5's reason code
    // on the QoS 1 acknowledgement) and keeps nothing.
    for topic in ["badged/ana/ch/mail/state", "badged/ana/host/desktop/ch/mail/state"] {
      let refused = try broker.publish(
        topic, Self.forged(owner: "evil", claimed: 1), as: "laptop", retain: true, launcher: launcher, check: false)
      #expect(refused.stderr.contains("Not authorized"), "\(topic): \(refused.stderr)")
    }
    // Under its own subtree the broker takes it; the bridges do not.
    let own = "badged/ana/host/laptop/ch/mail/state"
    for (owner, claimed) in [("evil", 1_704_067_200_000), ("desktop", 1_704_067_200_000), ("laptop", 1)] {
      try broker.publish(
        own, Self.forged(owner: owner, claimed: claimed), as: "laptop", retain: true, launcher: launcher)
    }

    // A write through the laptop's bridge, after the forgeries: delivered, on both machines.
    try laptop.request("INCR mail")
    try desktop.waitFor("mail", ["count": "4", "total": "4", "owner": nil])
    try laptop.waitFor("mail", ["count": "4", "total": "4", "owner": "desktop", "stale": "0", "pending": nil])

    // Retained now: the desktop's own state, and nothing on the old topic.
    let phone = try network.join("phone")
    let retained = try broker.subscriber(
      ["badged/ana/ch/+/state", "badged/ana/host/desktop/ch/+/state"], as: "phone", launcher: phone.launcher)
    #expect(retained.wait(timeout: Machine.patience) { $0.hasPrefix("badged/ana/host/desktop/ch/mail/state|1|") })
    #expect(!retained.lines.contains { $0.hasPrefix("badged/ana/ch/") }, "\(retained.lines)")
    #expect(retained.lines.allSatisfy { $0.contains(#""owner":"desktop""#) && !$0.contains("999") })

    for machine in [desktop, laptop] {
      let refusals = machine.bridgeLog.split(separator: "\n").filter { $0.contains("Refused the state on \(own)") }
      #expect(
        refusals.map(String.init) == [
          "<5>Refused the state on \(own): it names evil as the owner, and only evil may publish that.",
          "<7>Refused the state on \(own): it names desktop as the owner, and only desktop may publish that.",
          "<7>Refused the state on \(own): its claim (1) is before 2024-01-01.",
        ], "\(machine.diagnostics)")
      #expect(!machine.bridgeLog.contains("giving way"), "\(machine.diagnostics)")
      #expect(!machine.bridgeLog.contains("owned by evil"), "\(machine.diagnostics)")
    }
    // The bridge reports what waits at most once a second.
    var shown = ""
    let nothingWaits = try waitUntil(timeout: Machine.patience) {
      shown = try badgectl(["mqtt"], socket: laptop.socket).stdout
      return shown.contains("waiting for their owners: 0 writes here, 0 in the bridge")
    }
    #expect(nothingWaits, "\(shown)")
  }
}
