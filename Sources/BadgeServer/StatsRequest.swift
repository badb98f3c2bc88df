import BadgeCore
import BadgeProtocol

/// `STATS`: history read from the store, one `STATS` line and its `DAY` lines per channel, as
/// a long reply (a year of 20,000 channels is hundreds of megabytes): produced a chunk at a
/// time as the client reads it.
extension CommandExecutor {
  /// Replies with the period's figures (ending today, the request's day) of every channel
  /// `patterns` select, by name: each channel named exactly (even without history), and each
  /// channel with history a glob matches (every channel with history without patterns).
  func stats(_ period: StatsPeriod, _ patterns: [ChannelPattern], for client: Client, now: UInt64) {
    startReply(.stats(period, today: store.today, ChannelPatternSet(patterns)), for: client, now: now)
  }

  /// The names a `STATS` reply may show, in any order: those the patterns name exactly, and
  /// those with history that a glob matches (all of them without patterns).
  func statsCandidates(_ patterns: ChannelPatternSet, _ yield: (ChannelName) -> Void) {
    if patterns.isEmpty {
      store.history.forEachName(yield)
      return
    }
    patterns.forEachExactName(yield)
    guard patterns.hasGlobs else { return }
    store.history.forEachName { name in
      if !patterns.namesExactly(name) && patterns.globMatches(name) { yield(name) }
    }
  }

  /// Appends `name`'s `STATS` line, and keeps its figures for its `DAY` lines, when the
  /// reply still selects it: named exactly, or with history.
  func appendStatsTotals(
    _ name: ChannelName, _ period: StatsPeriod, today: Int, _ patterns: ChannelPatternSet, _ stream: inout ReplyStream,
    to client: Client
  ) {
    let owner = store.channel(named: name).mirror?.owner
    guard patterns.namesExactly(name) || store.history.hasDays(name) else { return }
    commit.observed(by: client)
    if let owner {
      // A mirrored channel's history is its owner's: the line says where.
      StatsLines.appendElsewhere(name, owner: owner, to: &client.output)
      return
    }
    let stats = store.history.stats(of: name, period: period, today: today)
    StatsLines.appendTotals(stats, to: &client.output)
    stream.days = (stats, 0)
  }

  /// Appends the `DAY` lines of the channel under way until the output holds `limit` bytes.
  func appendStatsDays(_ stream: inout ReplyStream, to client: Client, until limit: Int) {
    guard let (stats, first) = stream.days else { return }
    var next = first
    while next < stats.days.count && client.pendingOutput < limit {
      StatsLines.appendDay(stats, at: next, to: &client.output)
      next += 1
    }
    stream.days = next < stats.days.count ? (stats, next) : nil
  }
}
