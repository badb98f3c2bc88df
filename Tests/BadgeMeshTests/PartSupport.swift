import BadgeCore

@testable import BadgeMesh

extension [MeshAction] {
  /// The log lines among the actions, as level and text.
  var logged: [String] {
    compactMap {
      if case .log(let level, let text, _) = $0 { return "\(level.name): \(text)" }
      return nil
    }
  }
}

/// How the connections stand, for a part under test.
func links(daemonReady: Bool = true, brokerUp: Bool = true, synced: Bool = true) -> MeshLinks {
  MeshLinks(daemonReady: daemonReady, brokerUp: brokerUp, synced: synced)
}

/// The time most part tests run at.
let partTime = MeshTime(monotonic: 5_000_000, wallMs: 1_764_620_000_000)

/// The state an owner's retained message would carry.
func ownerState(_ owner: String, count: Int, claimed: Int64) -> ChannelState {
  ChannelState(
    count: count, label: String(count), unseen: count, total: Int64(count), seq: 1, owner: owner, claimed: claimed)
}
