import Foundation
import Testing

/// Junk on the topics, from an account that may write them (so the broker lets it through):
/// malformed, huge or unknown writes, and under its own subtree a later claim, a state that is
/// none, and a state in the owner's name; it changes nothing on any machine, and every process
/// stays up and keeps working.
@Suite struct MeshJunkTests {
  @Test func junkOnTheCommandAndStateTopicsChangesNothing() throws {
    let network = try MeshNetwork()
    let (desktop, mirrors) = try network.ownerAndMirrors(["laptop"], count: 3)
    let laptop = mirrors[0]
    let tool = try network.join("tool")
    let ownerState = "badged/ana/host/desktop/ch/mail/state"
    let watcher = try network.broker.subscriber([ownerState], as: "phone", launcher: tool.launcher)
    #expect(watcher.wait(timeout: Machine.patience) { $0.hasPrefix("\(ownerState)|1|") })
    let retained = try jsonObject(String(watcher.lines[0].split(separator: "|", maxSplits: 2)[2]))
    let claimed = try #require(retained["claimed"] as? Int)

    let forgedState = { (owner: String, claimed: Int) in
      #"{"count":99,"label":"99","dot":false,"muted":false,"unseen":99,"total":99,"seq":1000000,"owner":"\#(owner)","pulse":0,"claimed":\#(claimed)}"#
    }
    let junk: [(topic: String, payload: String, retain: Bool)] = [
      ("badged/ana/ch/mail/cmd", #"{"op":"incr","n":50"#, false),
      ("badged/ana/ch/mail/cmd", "not json at all", false),
      // A write that would count, were it not a megabyte long.
      ("badged/ana/ch/mail/cmd", #"{"op":"incr","# + String(repeating: " ", count: 1 << 20) + #""n":50}"#, false),
      ("badged/ana/ch/mail/cmd", #"{"op":"explode","n":50,"id":"server:junk:1"}"#, false),
      ("badged/ana/ch/mail/cmd", #"{"op":"incr","n":50,"id":"server:junk:2","unless":"busy"}"#, false),
      ("badged/ana/ch/mail/cmd", #"{"op":"incr","n":-50,"id":"server:junk:3"}"#, false),
      ("badged/ana/ch/%zz/cmd", #"{"op":"incr","n":50}"#, false),
      // Another host claiming the channel later than its owner, as if it owned it.
      ("badged/ana/host/server/ch/mail/state", forgedState("server", claimed + 60_000), true),
      ("badged/ana/host/server/ch/mail/state", "{}", true),
      // A state in the owner's name, under the only subtree this account may write.
      ("badged/ana/host/server/ch/mail/state", forgedState("desktop", claimed), true),
    ]
    for message in junk {
      try network.broker.publish(
        message.topic, message.payload, as: "server", retain: message.retain, launcher: tool.launcher)
    }
    // The laptop took them all, in order, by the time it has a state published after them.
    try network.broker.publish(
      "badged/ana/host/server/ch/news/state",
      #"{"count":1,"label":"1","dot":false,"muted":false,"unseen":1,"total":1,"seq":1,"owner":"server","pulse":0,"claimed":\#(claimed)}"#,
      as: "server", retain: true, launcher: tool.launcher)
    try laptop.waitFor("news", ["count": "1", "owner": "server"])
    #expect(field(laptop.state("mail") ?? "", "count") == "3", "\(laptop.state("mail") ?? "")")

    // A valid write from the same account, after the junk, goes through.
    try network.broker.publish(
      "badged/ana/ch/mail/cmd", #"{"op":"incr","n":1,"id":"server:valid:1"}"#, as: "server", launcher: tool.launcher)
    try desktop.waitFor("mail", ["count": "4", "total": "4"])
    try laptop.waitFor("mail", ["count": "4", "total": "4", "owner": "desktop", "stale": "0"])
    // And one through the laptop's bridge.
    try laptop.request("INCR mail")
    for machine in [desktop, laptop] { try machine.waitFor("mail", ["count": "5", "total": "5"]) }
    #expect(desktop.bridgeIsRunning && laptop.bridgeIsRunning)
    #expect(desktop.daemon?.isRunning == true && laptop.daemon?.isRunning == true)
    // Each piece reached both bridges (but the megabyte, which the broker keeps from them: they
    // ask for packets of at most 8 KiB), and each was dropped for what it is.
    let dropped = [
      "<7>Dropped a command for mail: not JSON: unterminated object at byte 19.",
      "<7>Dropped a command for mail: not JSON: expected null at byte 0.",
      "<7>Dropped a command for mail: unknown op 'explode'.",
      "<7>Dropped a command for mail: unknown member 'unless'.",
      "<7>Dropped a command for mail: 'n' is not a whole number from 1 to 2147483647.",
      "<7>Dropped a message on badged/ana/ch/%zz/cmd: not a topic of this bridge.",
      "<7>Dropped a state of mail naming server: desktop claimed it first.",
      "<7>Dropped a state of mail: 'count' is missing.",
      "<5>Refused the state on badged/ana/host/server/ch/mail/state: it names desktop as the owner, and only desktop "
        + "may publish that.",
    ]
    for machine in [desktop, laptop] {
      let lines = machine.bridgeLog.split(separator: "\n").filter {
        $0.hasPrefix("<7>Dropped") || $0.hasPrefix("<5>Refused")
      }
      #expect(lines.map(String.init) == dropped, "\(machine.diagnostics)")
    }
    // The retained state is the owner's: the one retained now, or the next (the owner's bridge
    // publishes a change that follows another within 50 ms when those 50 ms are over).
    let after = try network.broker.subscriber([ownerState], as: "phone", launcher: tool.launcher)
    func state(_ line: String) -> [String: Any]? {
      guard line.hasPrefix("\(ownerState)|") else { return nil }
      return try? jsonObject(String(line.split(separator: "|", maxSplits: 2)[2]))
    }
    let latest = after.wait(timeout: Machine.patience) { state($0)?["count"] as? Int == 5 }
    #expect(latest, "\(after.lines)")
    #expect(after.lines.compactMap(state).allSatisfy { $0["owner"] as? String == "desktop" }, "\(after.lines)")
  }
}
