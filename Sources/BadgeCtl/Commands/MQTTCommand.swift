import BadgeProtocol

/// `badgectl mqtt`: the state of the bridge to other machines (`badged-mqtt`), as it last
/// reported it to the daemon, and the writes to mirrored channels waiting for their owners.
struct MQTTCommand: Subcommand {
  static let spec = CommandSpec(
    name: "mqtt", abstract: "Show the state of the bridge to other machines.",
    discussion: """
      Asks the daemon for the state badged-mqtt last reported: whether it is connected to its
      broker, which broker, how many writes it holds that their owners have not answered, and
      its last error; and how many writes to mirrored channels wait in the daemon's outbox.
      Without a bridge it says so. Exits 0 either way, 69 when the daemon cannot be reached.
      """)

  init(_ arguments: inout CommandArguments) {}

  func run(socket: String) throws(CtlError) {
    var text = ""
    try DaemonConnection(socket: socket).request(.bridge(.query)) { line in
      if case .data(let data) = line, let report = BridgeReport(data) { text = MQTTCommand.describe(report) }
    }
    Output.write(text)
  }

  /// The lines printed for the daemon's `BRIDGE attached=…` line; none for another line.
  static func describe(_ line: String) -> String { BridgeReport(line).map(describe) ?? "" }

  /// The lines printed for what the bridge last reported.
  static func describe(_ report: BridgeReport) -> String {
    let forwards = report.forwards ?? "0"
    let full = report.fullOwners.map {
      "no room for more writes to \($0)'s channels (the outbox's room for it is full)\n"
    }
    guard report.attached else {
      return "bridge: not running (no badged-mqtt is connected to the daemon)\n"
        + "waiting for their owners: \(forwards) writes\n" + full.joined()
    }
    let broker = report.broker.flatMap { $0.isEmpty ? nil : $0 } ?? "(not reported yet)"
    var text = "bridge: host \(report.host ?? "?"), "
    text += report.connected ? "connected to \(broker)\n" : "not connected (broker \(broker))\n"
    text += "waiting for their owners: \(forwards) writes here, \(report.pending ?? "0") in the bridge\n"
    text += full.joined()
    if let error = report.error, !error.isEmpty { text += "last error: \(error)\n" }
    return text
  }
}
