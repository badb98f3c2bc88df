@testable import BadgeDaemon
import BadgeCore
import BadgeSystem
import Glibc

/// A change log in memory that fails on demand: `failCommits` makes commits throw (saving
/// nothing), `failRepairs` makes repairs throw.
final class MemoryChangeLog: ChangeLog {
  var failCommits = false
  var failRepairs = false
  /// Records of the current turn, then of every saved turn.
  private(set) var pending: [Channel] = []
  private(set) var saved: [Channel] = []
  private(set) var repairs = 0
  var failed: ((SystemError) -> Void)?

  static let diskError = SystemError("write to 'journal'", Errno(rawValue: EIO))

  /// Do-not-disturb records of the current turn, then of every saved turn.
  private(set) var pendingDND: [DoNotDisturb] = []
  private(set) var savedDND: [DoNotDisturb] = []

  func record(_ channel: Channel, day: HistoryDay?) { pending.append(channel) }

  func record(_ dnd: DoNotDisturb) { pendingDND.append(dnd) }

  func commit() throws(SystemError) {
    defer {
      pending.removeAll()
      pendingDND.removeAll()
    }
    if failCommits { throw Self.diskError }
    saved += pending
    savedDND += pendingDND
  }

  func repair() throws(SystemError) {
    repairs += 1
    if failRepairs { throw Self.diskError }
  }

  /// The saved counts by channel name.
  var savedCounts: [String: Int] {
    var counts: [String: Int] = [:]
    for channel in saved { counts[channel.name.description] = channel.count }
    return counts
  }
}

/// The server's pure parts wired as the server wires them, driven turn by turn by the test:
/// `send` carries out request lines, `endTurn` commits and publishes like the post source.
final class Turns {
  let store: Store
  let log = MemoryChangeLog()
  let subscriptions: Subscriptions
  let commit: GroupCommit
  let executor: CommandExecutor
  var now: UInt64 = 1_000_000_000
  /// Peers with output to send, in the order the fan-out queued them.
  private let queue = PeerList()
  /// Peers the commit closed, in order.
  private(set) var closed: [Peer] = []
  /// How many times a repair was scheduled.
  private(set) var repairsScheduled = 0
  private var nextID = 1

  init(config: DaemonConfig = DaemonConfig()) {
    store = Store(config: config)
    subscriptions = Subscriptions { [queue] peer in
      peer.queuedForSend = true
      queue.peers.append(peer)
    }
    let logger = Logger(level: .emergency)
    commit = GroupCommit(store: store, subscriptions: subscriptions, policy: StorageFailurePolicy(logger: logger))
    executor = CommandExecutor(store: store, subscriptions: subscriptions, commit: commit, logger: logger)
    commit.changeLog = log
    log.failed = { [unowned commit] in commit.policy.failed($0, "") }
    commit.policy.repair = { [unowned log] () throws(SystemError) in try log.repair() }
    commit.policy.scheduleRepair = { [unowned self] in repairsScheduled += 1 }
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
    peer.output = Array(repeating: UInt8(ascii: "x"), count: Subscriptions.eventHighWater)
    return peer
  }

  /// Carries out `lines` (each without its newline) as `peer`'s requests.
  func send(_ peer: Peer, _ lines: String...) {
    for line in lines {
      Array(line.utf8).withUnsafeBytes { executor.handleLine($0, from: peer, now: now) }
    }
  }

  /// Ends the turn as the post source does; returns the peers the fan-out queued.
  @discardableResult
  func endTurn() -> [Peer] {
    commit.commit(now: now) { peer in
      closed.append(peer)
      peer.closed = true
      subscriptions.stop(peer)
    }
    let peers = queue.peers
    queue.peers.removeAll()
    for peer in peers { peer.queuedForSend = false }
    return peers
  }

  /// Takes the peer's output as lines, as if the outbox had sent it all.
  func take(_ peer: Peer) -> [String] {
    let text = String(decoding: peer.output[peer.outputOffset...], as: UTF8.self)
    peer.discardOutput()
    return text.split(separator: "\n").map(String.init)
  }
}

final class PeerList {
  var peers: [Peer] = []
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
