import BadgeCore
import BadgeProtocol

/// `STATS`: history read from the store, one `STATS` line and its `DAY` lines per channel.
extension CommandExecutor {
  /// Replies with the period's figures of every channel `patterns` select, by name: each
  /// channel named exactly (even without history), and each channel with history a glob
  /// matches (every channel with history without patterns).
  func stats(_ period: StatsPeriod, _ patterns: [ChannelPattern], for client: Client) {
    let history = store.history
    var names = Set<ChannelName>()
    for pattern in patterns {
      if let name = pattern.exactName { names.insert(name) }
    }
    for name in history.names where !names.contains(name) {
      if patterns.isEmpty || patterns.contains(where: { $0.isGlob && $0.matches(name) }) {
        names.insert(name)
      }
    }
    for name in names.sorted() {
      StatsLines.append(history.stats(of: name, period: period, today: store.today), to: &client.output)
    }
    ReplyEncoder.appendOK(to: &client.output)
  }
}
