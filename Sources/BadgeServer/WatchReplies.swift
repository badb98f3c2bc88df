import BadgeCore
import BadgeProtocol

/// `WATCH`'s reply after the do-not-disturb line: the snapshot, or, for `WATCH since=<seq>`,
/// the changes after that number replayed from `RecentChanges` when every one of them is kept
/// (PROTOCOL.md, "WATCH"). Both are long replies (`startReply`): a replay of the 1,024 kept
/// changes is produced as the client reads it, with the watcher's events held meanwhile.
extension CommandExecutor {
  /// Starts the reply to `WATCH` (`since`: its `since=`) for `patterns`, the request's own.
  func startWatchReply(_ patterns: ChannelPatternSet, since: UInt64?, for client: Client, now: UInt64) {
    guard let since else {
      startReply(.snapshot(patterns, .snapshot), for: client, now: now)
      return
    }
    let changes = commit.recent.changes(after: since, current: store.seq) { name in
      patterns.isEmpty || patterns.matches(name)
    }
    guard let changes else {
      logger.debug("Client \(client.id): WATCH since=\(since) cannot be replayed (now at \(store.seq)): a snapshot.")
      startReply(.snapshot(patterns, .reset), for: client, now: now)
      return
    }
    startReply(.replay(since: since), changes: changes[...], for: client, now: now)
  }
}
