import BadgeCore
import BadgeProtocol

/// Do-not-disturb shared between machines (`dnd = shared`), as one part of the bridge: this
/// machine's changes published (retained, last writer wins: `DNDSync`), other machines'
/// applied to its daemon, and each held while its side is not ready: a change from elsewhere
/// until the daemon is, one of this machine's until the broker's retained states are in.
struct SharedDND {
  /// How long after applying another machine's change the daemon's report of it is taken as
  /// that change coming back, when the daemon does not say where it came from.
  static let echoWindow: UInt64 = 2_000_000

  private let shared: Bool
  private let host: String
  /// `<prefix>/dnd/state`.
  private let topic: String
  private var sync: DNDSync
  /// The last change applied here from another machine, to know it when the daemon reports
  /// it back.
  private var applied: (state: DNDState, at: UInt64)?
  /// Another machine's change, for a daemon not ready yet.
  private var pendingRemote: DNDState?
  /// This machine's change, for a broker whose retained states are not in yet.
  private var pendingLocal: DNDState?

  init(config: MeshConfig, topics: MeshTopics) {
    shared = config.dnd == .shared
    host = config.host
    topic = topics.dndState
    sync = DNDSync(host: config.host)
  }

  /// The daemon pushed a do-not-disturb change.
  mutating func localChanged(
    _ local: DaemonLink.LocalDND, links: MeshLinks, at time: MeshTime, into outbox: inout MeshOutbox
  ) {
    guard shared else { return }
    if let from = local.from, from != host { return }  // another machine's, applied here
    if let applied, time.monotonic < applied.at + SharedDND.echoWindow, applied.state.on == local.on,
      local.from == nil
    {
      self.applied = nil
      return
    }
    let state = sync.made(on: local.on, until: until(local, at: time), now: local.at ?? time.wallMs)
    share(state, links: links, into: &outbox)
  }

  /// Do-not-disturb as the daemon reported it when the bridge started watching: published
  /// when it is newer than what the other machines published, so a change made while the
  /// bridge was away reaches them, and one they made since is not overwritten by an older one.
  /// A state never changed there (no `at=`) is published as made at `DNDState.neverChanged`:
  /// the state topic then says something from the first start (Home Assistant's switch reads
  /// it), and every real change, of any machine, is newer.
  mutating func snapshot(
    _ local: DaemonLink.LocalDND, links: MeshLinks, at time: MeshTime, into outbox: inout MeshOutbox
  ) {
    guard shared, local.from == nil || local.from == host else { return }
    let at = local.at ?? DNDState.neverChanged
    guard let state = sync.found(on: local.on, until: until(local, at: time), at: at) else { return }
    share(state, links: links, into: &outbox)
  }

  /// The wall-clock end of a timed do-not-disturb the daemon reports with what is left of it.
  private func until(_ local: DaemonLink.LocalDND, at time: MeshTime) -> Int64 {
    local.on && local.leftMs > 0 ? time.wallMs + Int64(local.leftMs) : 0
  }

  /// Publishes a change of this machine's now, or once the broker's retained states are in.
  private mutating func share(_ state: DNDState, links: MeshLinks, into outbox: inout MeshOutbox) {
    if links.synced {
      publish(state, into: &outbox)
    } else {
      pendingLocal = state
    }
  }

  private func publish(_ state: DNDState, into outbox: inout MeshOutbox) {
    outbox.publish(MeshMessage(topic: topic, payload: state.payload, retain: true))
  }

  /// The broker's retained states are in: this machine's change made meanwhile goes, unless
  /// a newer one was heard.
  mutating func synced(into outbox: inout MeshOutbox) {
    guard let local = pendingLocal else { return }
    pendingLocal = nil
    if sync.newest == local.stamp { publish(local, into: &outbox) }
  }

  /// Another machine's change (or this machine's, heard back).
  mutating func stateHeard(_ payload: [UInt8], links: MeshLinks, at time: MeshTime, into outbox: inout MeshOutbox) {
    guard shared else { return }
    let state: DNDState
    do throws(PayloadError) {
      state = try DNDState(payload: payload)
    } catch {
      outbox.log(.debug, "Dropped a do-not-disturb state: \(error).")
      return
    }
    switch sync.heard(state) {
    case .apply:
      if links.daemonReady {
        apply(state, at: time, into: &outbox)
      } else {
        pendingRemote = state
      }
    case .own, .stale:
      break
    }
  }

  /// The daemon is ready: another machine's change heard meanwhile is applied.
  mutating func daemonReady(at time: MeshTime, into outbox: inout MeshOutbox) {
    guard let remote = pendingRemote else { return }
    pendingRemote = nil
    apply(remote, at: time, into: &outbox)
  }

  private mutating func apply(_ state: DNDState, at time: MeshTime, into outbox: inout MeshOutbox) {
    applied = (state, time.monotonic)
    outbox.send(DaemonLink.remoteDND(state, nowMs: time.wallMs))
  }

  /// `ON`, `OFF` or a timed one, from Home Assistant's switch or anything else: made here as a
  /// change of this machine's, which its daemon then reports and the bridge publishes.
  func setHeard(_ payload: [UInt8], links: MeshLinks, at time: MeshTime, into outbox: inout MeshOutbox) {
    guard shared else { return }
    let request: DNDRequest
    do throws(PayloadError) {
      request = try DNDRequest(payload: payload, nowMs: time.wallMs)
    } catch {
      outbox.log(.debug, "Dropped a do-not-disturb request: \(error).")
      return
    }
    guard links.daemonReady else {
      outbox.log(.debug, "Ignored a do-not-disturb request: badged is not reachable.")
      return
    }
    if case .on(let ms?) = request, !Limits.dndMs.contains(ms) {
      outbox.log(.debug, "Ignored a do-not-disturb request whose end is past or more than 30 days away.")
      return
    }
    outbox.send(.dnd(request))
  }
}
