import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Every forwarded write ends, against a real broker: a long backlog handed to a bridge that
/// starts while its owner answers, writes queued while the broker restarted without
/// persistence, and the bridge's memory after a flood of commands.
@Suite struct MeshForwardTests {
  /// `count` increments of `channel` on `machine`, pipelined, each acknowledged.
  static func increments(_ count: Int, of channel: String, on machine: Machine) throws {
    let client = try RawClient(path: machine.socket)
    var left = count
    while left > 0 {
      let batch = min(left, 1000)
      try client.send(String(repeating: "INCR \(channel)\n", count: batch))
      for _ in 0..<batch {
        let reply = try client.readReply()
        guard reply.last == "OK" else { throw TestFailure("\(machine.name): INCR \(channel) failed: \(reply)") }
      }
      left -= batch
    }
  }

  /// What `BRIDGE` says on `machine`: its `pending` and `forwards` figures.
  static func bridgeFigures(_ machine: Machine) throws -> (pending: String?, forwards: String?) {
    let line = try machine.request("BRIDGE")[0]
    return (field(line, "pending"), field(line, "forwards"))
  }

  /// The mirror's bridge starts with 2,000 writes in its daemon's outbox (a listing well over
  /// the 64 KiB one read takes) and its owner online: the owner answers the first ones while
  /// the bridge still reads the listing. Every one is delivered: the owner has them all, the
  /// mirror shows nothing pending, and `BRIDGE` agrees with the outbox.
  @Test func aLongBacklogIsDeliveredToTheLastWrite() throws {
    let network = try MeshNetwork()
    let (desktop, laptop) = try MeshRecoveryTests.pair(network)
    laptop.stopBridge()
    try Self.increments(2000, of: "mail", on: laptop)
    #expect(try Self.bridgeFigures(laptop).forwards == "2000")
    try laptop.startBridge()
    try desktop.waitFor("mail", ["count": "2001", "total": "2001"])
    try laptop.waitFor("mail", ["count": "2001", "stale": "0", "pending": nil])
    let settled = waitUntil(timeout: Machine.patience) {
      (try? Self.bridgeFigures(laptop)).map { $0.pending == "0" && $0.forwards == "0" } ?? false
    }
    let said = (try? laptop.request("BRIDGE")) ?? []
    #expect(settled, "BRIDGE: \(said)\n\(laptop.diagnostics)")
  }

  /// The broker restarts without persistence while both bridges run, and a write is made on
  /// the mirror meanwhile: it reaches the owner as soon as the owner is heard from again, well
  /// before the 30 s retry.
  @Test func writesQueuedOverABrokerRestartGoAsSoonAsTheOwnerIsBack() throws {
    let network = try MeshNetwork()
    let (desktop, laptop) = try MeshRecoveryTests.pair(network)
    network.broker.stop()
    try laptop.waitFor("mail", ["stale": "1"])
    try laptop.request("INCR mail 2")
    try network.broker.start()
    let back = Date()
    try desktop.waitFor("mail", ["count": "3", "total": "3"], timeout: 10)
    try laptop.waitFor("mail", ["count": "3", "stale": "0", "pending": nil], timeout: 10)
    let took = Date().timeIntervalSince(back)
    print("A write queued over a broker restart reached its owner \(took) s after the broker was back.")
    #expect(took < 10)
  }

  /// A flood of 20,000 commands to a channel this machine owns, all at once (the broker queues
  /// them all: `max_queued_messages 0`): once they are applied, the bridge's resident memory
  /// is back within 2 MB of where it was before.
  @Test func theBridgeGivesMemoryBackAfterACommandFlood() throws {
    let network = try MeshNetwork(brokerSettings: ["max_queued_messages 0"])
    let (desktop, _) = try MeshRecoveryTests.pair(network)
    let pid = try #require(desktop.bridgePID)
    let before = try residentKiB(pid)
    let lines = (1...20_000).map { #"{"op":"incr","n":1,"id":"laptop:f100d:\#($0)"}"# }
    let file = try desktop.folder.write("flood", lines.joined(separator: "\n") + "\n")
    let broker = network.broker
    let command =
      broker.launcher + [
        "sh", "-c",
        "mosquitto_pub --cafile \(broker.caFile) -h \(broker.hostName) -p \(broker.port) -u laptop "
          + "-P \(Broker.passwords["laptop"]!) -V mqttv5 -q 1 -t badged/ana/ch/mail/cmd -l < \(file)",
      ]
    let published = try run(command[0], Array(command.dropFirst()))
    #expect(published.status == 0, "\(published.stderr)")
    var peak = before
    try desktop.waitFor("mail", ["count": "20001"], timeout: 120)
    peak = max(peak, try residentKiB(pid))
    // The trim comes a second after the flood drains.
    var after = peak
    _ = waitUntil(timeout: 10) {
      after = (try? residentKiB(pid)) ?? after
      return after <= before + 2048
    }
    print(
      "badged-mqtt's VmRSS: \(before) KiB before 20,000 commands, \(peak) KiB as they were applied, \(after) KiB after."
    )
    #expect(after <= before + 2048, "VmRSS \(before) KiB before the flood, \(after) KiB after")
  }
}

/// A process's resident memory (`VmRSS` in /proc/PID/status), in KiB.
func residentKiB(_ pid: pid_t) throws -> Int {
  let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
  guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
    let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
  else { throw TestFailure("no VmRSS in /proc/\(pid)/status") }
  return kib
}
