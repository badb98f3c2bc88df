import BadgeConfig
import BadgeCore
import BadgeLog
import TestSupport

@testable import BadgeServer

/// A failure to save, as the daemon's change log would describe it.
struct DiskError: Error, CustomStringConvertible {
  var description: String { "Failed to write to 'journal': Input/output error" }
}

/// A change log in memory that fails on demand: `failCommits` makes commits throw (saving
/// nothing), `failRepairs` makes repairs throw.
final class MemoryChangeLog: ChangeLog {
  var failCommits = false
  var failRepairs = false
  /// Records of the current turn, then of every saved turn.
  private(set) var pending: [Channel] = []
  private(set) var saved: [Channel] = []
  private(set) var repairs = 0
  var failures: StorageFailurePolicy?

  /// Do-not-disturb records of the current turn, then of every saved turn.
  private(set) var pendingDND: [DoNotDisturb] = []
  private(set) var savedDND: [DoNotDisturb] = []
  /// Request ids of the current turn, then of every saved turn: each with the record it rode
  /// in (a channel's name, `*` for do-not-disturb's, nothing for one of its own).
  private(set) var pendingIDs: [(id: RequestID, in: String?)] = []
  private(set) var savedIDs: [(id: RequestID, in: String?)] = []

  func record(_ channel: Channel, day: HistoryDay?, id: RequestID?, forward: Forwarded?) {
    if let forward { pendingForwards.append("+" + forward.entry.id) }
    pending.append(channel)
    if let id { pendingIDs.append((id, channel.name.description)) }
  }

  func record(_ dnd: DoNotDisturb, id: SavedRequestID?) {
    pendingDND.append(dnd)
    if let id { pendingIDs.append((id.id, "*")) }
  }

  func record(_ id: SavedRequestID) { pendingIDs.append((id.id, nil)) }

  /// Forwarded writes put in the outbox (`+id`) and taken out (`-id`), of the current turn,
  /// then of every saved turn.
  private(set) var pendingForwards: [String] = []
  private(set) var savedForwards: [String] = []

  func recordDelivered(_ id: String) { pendingForwards.append("-" + id) }

  func commit() throws {
    defer {
      pending.removeAll()
      pendingDND.removeAll()
      pendingIDs.removeAll()
      pendingForwards.removeAll()
    }
    if failCommits { throw DiskError() }
    saved += pending
    savedDND += pendingDND
    savedIDs += pendingIDs
    savedForwards += pendingForwards
  }

  func repair() throws {
    repairs += 1
    if failRepairs { throw DiskError() }
  }

  /// The saved counts by channel name.
  var savedCounts: [String: Int] {
    var counts: [String: Int] = [:]
    for channel in saved { counts[channel.name.description] = channel.count }
    return counts
  }
}

/// The server's core driven turn by turn by the test, as the daemon drives it: `send` carries
/// out request lines, `endTurn` ends the turn as the post source does, with the test as the
/// transport that sends (the clients the turn queued are collected) and closes.
final class Turns: ClientTransport {
  let clock = ManualTurnClock()
  let log = MemoryChangeLog()
  let logLines = LogLines()
  let core: ServerCore<Peer>
  /// Clients the commit closed, in order.
  private(set) var closed: [Peer] = []
  /// The clients each end of turn was to send to, in order.
  private var sent: [Peer] = []
  /// What the turn's sending does besides draining the queue (the outbox's part).
  private var sending: () -> Void = {}
  /// How many clients without a reply each end of turn sends to (the outbox's budget).
  var budget = Int.max
  private var nextID = 1

  init(config: DaemonConfig = DaemonConfig()) {
    core = ServerCore(config: config, clock: clock, logger: Logger(level: .debug, sink: logLines))
    core.changeLog = log
  }

  var store: Store { core.store }
  var commit: GroupCommit<Peer> { core.commit }
  var subscriptions: Subscriptions<Peer> { core.subscriptions }
  var policy: StorageFailurePolicy { core.policy }
  var now: UInt64 {
    get { clock.now }
    set { clock.now = newValue }
  }

  func peer() -> Peer {
    defer { nextID += 1 }
    return Peer(id: nextID, pid: nil)
  }

  /// A peer that watches `request` (`WATCH …`) from the next turn on, its snapshot taken.
  func watcher(_ request: String = "WATCH") -> Peer {
    let peer = peer()
    send(peer, request)
    endTurn()
    _ = take(peer)
    return peer
  }

  /// A watcher whose unsent output is at the high-water mark: its events are merged.
  func congestedWatcher() -> Peer {
    let peer = watcher()
    peer.output = Array(repeating: UInt8(ascii: "x"), count: Subscriptions<Peer>.eventHighWater)
    return peer
  }

  /// Carries out `lines` (each without its newline) as `peer`'s requests.
  func send(_ peer: Peer, _ lines: String...) {
    for line in lines {
      Array(line.utf8).withUnsafeBytes { core.handleLine($0, from: peer) }
    }
  }

  /// Ends the turn as the post source does; returns the clients the turn queued for sending.
  @discardableResult
  func endTurn() -> [Peer] {
    core.endTurn(self)
    defer { sent.removeAll() }
    return sent
  }

  /// Ends the turn with `body` run while its output is sent, as the outbox's part (sending,
  /// and appending merged events once a peer's output drained).
  func endTurn(sending body: @escaping () -> Void) {
    sending = body
    defer { sending = {} }
    endTurn()
  }

  /// Appends what `peer` is owed since it fell behind, as the outbox does once the peer's
  /// output drained: while a turn's output is sent. Returns whether anything was appended.
  @discardableResult
  func appendMerged(to peer: Peer) -> Bool {
    var appended = false
    endTurn(sending: { appended = self.core.appendMergedEvents(to: peer) })
    return appended
  }

  func close(_ client: Peer) {
    closed.append(client)
    core.closed(client)
  }

  func send(_ queue: SendQueue<Peer>) {
    var left = budget
    func withinBudget() -> Bool {
      left -= 1
      return left >= 0
    }
    queue.drain(while: withinBudget) { sent.append($0) }
    sending()
  }

  /// Takes the peer's output as lines, as if the outbox had sent it all.
  func take(_ peer: Peer) -> [String] {
    let text = String(decoding: peer.output[peer.outputOffset...], as: UTF8.self)
    peer.discardOutput()
    return text.split(separator: "\n").map(String.init)
  }
}

/// A channel name from a literal the test knows to be valid.
func name(_ text: String) -> ChannelName {
  guard let name = ChannelName(text) else { fatalError("'\(text)' is not a valid channel name") }
  return name
}

/// The value of `key=` in a state line.
func field(_ line: String, _ key: String) -> String? {
  for word in line.split(separator: " ") where word.hasPrefix(key + "=") {
    return String(word.dropFirst(key.count + 1))
  }
  return nil
}
