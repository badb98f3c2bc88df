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
      if case .data(let data) = line, data.hasPrefix("BRIDGE ") { text = MQTTCommand.describe(data) }
    }
    Output.write(text)
  }

  /// The lines printed for the daemon's `BRIDGE attached=…` line.
  static func describe(_ line: String) -> String {
    var fields: [String: String] = [:]
    let words = line.split(separator: " ", omittingEmptySubsequences: false).dropFirst()
    for (i, word) in zip(words.indices, words) {
      guard let eq = word.firstIndex(of: "=") else { continue }
      let key = String(word[..<eq])
      guard key != "error" else {
        // `error=` is last and may hold spaces: the rest of the line.
        fields[key] = ([word[word.index(after: eq)...]] + words[(i + 1)...]).joined(separator: " ")
        break
      }
      fields[key] = String(word[word.index(after: eq)...])
    }
    let forwards = fields["forwards"] ?? "0"
    guard fields["attached"] == "1" else {
      return "bridge: not running (no badged-mqtt is connected to the daemon)\n"
        + "waiting for their owners: \(forwards) writes\n"
    }
    let broker = fields["broker"].flatMap { $0.isEmpty ? nil : $0 } ?? "(not reported yet)"
    var text = "bridge: host \(fields["host"] ?? "?"), "
    text += fields["connected"] == "1" ? "connected to \(broker)\n" : "not connected (broker \(broker))\n"
    text += "waiting for their owners: \(forwards) writes here, \(fields["pending"] ?? "0") in the bridge\n"
    if let error = fields["error"], !error.isEmpty { text += "last error: \(error)\n" }
    return text
  }
}
