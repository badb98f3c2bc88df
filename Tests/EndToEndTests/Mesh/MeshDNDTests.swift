import Foundation
import Testing

/// Shared do-not-disturb changed on two machines at the same moment, through a real broker:
/// in every trial both end on the same change, the greatest, and each machine's retained
/// state says it.
@Suite struct MeshDNDTests {
  /// What each machine asks in a trial, in turn: every pair of `on`, `off` and `on 5m`.
  static let requests = [["on"], ["off"], ["on", "5m"]]

  /// 100 trials: `badgectl dnd …` started on both machines together, then waited for until
  /// both daemons are on the same change. A daemon's change only grows (it takes another
  /// machine's only when greater, and stamps its own after its last), so once both are on the
  /// same one after both requests ended, no greater one is left anywhere: they agree for good.
  @Test func changesAtTheSameMomentOnTwoMachinesAlwaysAgree() throws {
    let network = try MeshNetwork()
    let machines = try ["desktop", "laptop"].map { try Machine($0, on: network, settings: ["dnd = shared"]) }
    let phone = try network.broker.subscriber(["badged/ana/host/+/dnd"], as: "phone")
    try machines[0].request("DND on")
    var disagreed: [String] = []
    for trial in 0..<100 {
      let asked = [Self.requests[trial % 3], Self.requests[trial / 3 % 3]]
      let children = try zip(machines, asked).map { machine, request in
        try Child(
          [Binaries.badgectl.path, "dnd"] + request,
          environment: Child.environment(["BADGED_SOCKET": machine.socket]))
      }
      #expect(children.map { $0.wait() } == [0, 0], "trial \(trial): \(asked)")
      var lines: [String] = []
      let agreed = waitUntil(timeout: 5) {
        lines = machines.map { (try? $0.request("DND"))?.first ?? "" }
        return Set(zip(machines, lines).map { Self.stamp($1, of: $0.name) }).count == 1
      }
      let states = lines.map { (field($0, "dnd"), field($0, "left") == "0") }
      if !agreed || states[0] != states[1] {
        disagreed.append("trial \(trial) \(asked): \(lines)")
        continue
      }
      // Each machine's retained state is the change both are on.
      let stamp = Self.stamp(lines[0], of: "desktop")
      let published = waitUntil(timeout: 5) {
        let last = machines.map { machine in phone.lines.last { $0.hasPrefix("badged/ana/host/\(machine.name)/dnd|") } }
        return last.allSatisfy { $0?.contains(stamp) == true }
          && Set(last.map { $0?.split(separator: "|").last }).count == 1
      }
      if !published { disagreed.append("trial \(trial) \(asked): published \(phone.lines.suffix(4))") }
    }
    #expect(disagreed.isEmpty, "\(disagreed.count) of 100 trials disagreed:\n\(disagreed.joined(separator: "\n"))")
  }

  /// The change `machine`'s `*` line says, as a published state says it: when, and where
  /// (`from=`, else the machine itself).
  static func stamp(_ line: String, of machine: String) -> String {
    #""at":\#(field(line, "at") ?? "-"),"host":"\#(field(line, "from") ?? machine)""#
  }
}
