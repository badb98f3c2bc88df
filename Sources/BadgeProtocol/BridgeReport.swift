/// The daemon's `BRIDGE attached=…` line, its reply to `BRIDGE` (`badgectl mqtt`): whether a
/// bridge is attached, and what it last reported (docs/PROTOCOL.md, "BRIDGE"). The figures
/// are kept as the daemon wrote them, to be shown as they are.
public struct BridgeReport: Equatable, Sendable {
  public var attached: Bool
  public var host: String?
  public var connected: Bool
  /// Empty until the bridge reported its broker.
  public var broker: String?
  /// The writes the bridge holds that their owners have not answered.
  public var pending: String?
  /// The writes to mirrored channels waiting in the daemon's outbox.
  public var forwards: String?
  /// The owners whose room in the outbox is full (`full=`, comma-separated), when any is.
  public var fullOwners: [String]
  public var error: String?

  /// Reads a data line of `BRIDGE`'s reply; `nil` for any other line.
  public init?(_ line: String) {
    guard line.hasPrefix("BRIDGE ") else { return nil }
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
    attached = fields["attached"] == "1"
    host = fields["host"]
    connected = fields["connected"] == "1"
    broker = fields["broker"]
    pending = fields["pending"]
    forwards = fields["forwards"]
    fullOwners = fields["full"].map { $0.split(separator: ",").map(String.init) } ?? []
    error = fields["error"]
  }
}
