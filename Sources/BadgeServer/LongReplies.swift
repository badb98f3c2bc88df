import BadgeCore
import BadgeProtocol

/// Replies that may be too long for one turn: `LIST`, a `WATCH` snapshot or replay and `STATS` are
/// produced as the client reads them. A request's turn appends the first chunk; whatever is
/// left waits in the connection's `ReplyStream`, and each time the output has drained the
/// daemon asks for the next chunk (`continueReply`), in a turn of its own, until the status
/// line. Meanwhile the connection's later requests wait, so replies stay in order, and a
/// watching connection's events are held (merged per channel) until the reply has ended.
///
/// So no request costs a turn more than a chunk of lines (and, every `NameBatches.batchSize`
/// names, a pass over the channels), and a client that stops reading holds at most
/// `[limits] max_unsent_bytes` and a chunk of output, however large its reply.
extension CommandExecutor {
  /// How much output one step of a long reply appends, at most (and a line): 64 KiB, the
  /// least `[limits] max_unsent_bytes` may be.
  static var replyChunk: Int { 64 << 10 }

  /// Starts a reply that may be too long for one turn: its first chunk now; the rest, if any,
  /// as the client's output drains.
  func startReply(_ kind: ReplyStream.Kind, changes: ArraySlice<Channel> = [], for client: Client, now: UInt64) {
    var stream = ReplyStream(kind)
    stream.changes = changes
    guard !fill(&stream, for: client, now: now) else { return }
    client.reply = PendingReply(stream)
    subscriptions.hold(client)
  }

  /// Appends the next chunk of `client`'s reply under way (once its output has drained).
  func continueReply(_ client: Client, now: UInt64) {
    guard let pending = client.reply else { return }
    if fill(&pending.stream, for: client, now: now) { client.reply = nil }
  }

  /// Appends lines until `replyChunk` more bytes wait or the reply ends, its status line
  /// included. Returns whether it ended. Each line shows its channel as it is now.
  private func fill(_ stream: inout ReplyStream, for client: Client, now: UInt64) -> Bool {
    let limit = client.pendingOutput + Self.replyChunk
    let kind = stream.kind
    if case .replay(let since) = kind {
      while client.pendingOutput < limit, let channel = stream.changes.popFirst() {
        appendState(channel, to: client, now: now)
      }
      guard stream.changes.isEmpty else { return false }
      ReplyEncoder.appendOK(WatchOutcome.replayed(since: since).statusText, to: &client.output)
      return true
    }
    while client.pendingOutput < limit {
      if stream.days != nil {
        appendStatsDays(&stream, to: client, until: limit)
        continue
      }
      guard let name = stream.names.next({ yield in candidates(kind, yield) }) else {
        switch kind {
        case .list, .stats, .replay: ReplyEncoder.appendOK(to: &client.output)
        case .snapshot(_, let outcome): ReplyEncoder.appendOK(outcome.statusText, to: &client.output)
        }
        return true
      }
      switch kind {
      case .list:
        let channel = store.channel(named: name)
        if channel.isListed { appendState(channel, to: client, now: now) }
      case .snapshot(let patterns, _):
        let channel = store.channel(named: name)
        if channel.isListed || patterns.namesExactly(name) { appendState(channel, to: client, now: now) }
      case .stats(let period, let today, let patterns):
        appendStatsTotals(name, period, today: today, patterns, &stream, to: client)
      case .replay:
        break  // its lines are `ReplyStream.changes`
      }
    }
    return false
  }

  /// The names a reply of `kind` may show, in any order, each once.
  private func candidates(_ kind: ReplyStream.Kind, _ yield: (ChannelName) -> Void) {
    switch kind {
    case .list:
      forEachKeptName(yield)
    case .snapshot(let patterns, _):
      snapshotCandidates(patterns, yield)
    case .replay:
      break  // its lines are `ReplyStream.changes`
    case .stats(_, _, let patterns):
      statsCandidates(patterns, yield)
    }
  }

  /// The names a `WATCH` snapshot may show: each the patterns name exactly (even at 0), and
  /// each listed channel a glob matches (every listed channel without patterns).
  private func snapshotCandidates(_ patterns: ChannelPatternSet, _ yield: (ChannelName) -> Void) {
    if patterns.isEmpty {
      forEachKeptName(yield)
      return
    }
    patterns.forEachExactName(yield)
    guard patterns.hasGlobs else { return }
    forEachKeptName { name in
      if !patterns.namesExactly(name) && patterns.globMatches(name) { yield(name) }
    }
  }

  /// The name of every channel the store keeps (those are listed; a line checks it again when
  /// it is produced), without copying the channels.
  private func forEachKeptName(_ yield: (ChannelName) -> Void) {
    let channels = store.channels
    for i in channels.indices { yield(channels[i].name) }
  }
}
