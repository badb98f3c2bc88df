import BadgeCore
import BadgeProtocol

/// Do-not-disturb shared between machines (`dnd = shared`), as one part of the bridge: the
/// change this machine's daemon is on published as this machine's (retained, on its
/// `<prefix>/host/<host>/dnd`), and every greater change heard on any machine's handed to the
/// daemon (the order: `DNDSync`). A heard change waits for a daemon that is not ready; this
/// machine's state is published once the broker's retained states are in, and again on each
/// connection.
struct SharedDND {
  private let shared: Bool
  /// `<prefix>/host/<host>/dnd`.
  private let topic: String
  private var sync: DNDSync

  init(config: MeshConfig, topics: MeshTopics) {
    shared = config.dnd == .shared
    topic = topics.ownDND
    sync = DNDSync(host: config.host)
  }

  /// The daemon reported do-not-disturb: in its snapshot when the bridge started watching, or
  /// pushed (a change made here, another machine's it took, a timed one's end). Its stamp is
  /// when it changed there: a change made while the bridge was away is as old as it is. A
  /// state never changed there (no `at=`) is taken as made at `DNDState.neverChanged`: the
  /// topic then says something from the first start (Home Assistant's switch reads it), and
  /// every real change, of any machine, is greater.
  mutating func reported(
    _ local: DaemonLink.LocalDND, links: MeshLinks, at time: MeshTime, into outbox: inout MeshOutbox
  ) {
    guard shared else { return }
    let state = sync.reported(on: local.on, leftMs: local.leftMs, from: local.from, at: local.at, nowMs: time.wallMs)
    // Before both sides are ready, `synced` publishes it once they are.
    if let state, links.synced && links.daemonReady { publish(state, into: &outbox) }
  }

  private func publish(_ state: DNDState, into outbox: inout MeshOutbox) {
    outbox.publish(MeshMessage(topic: topic, payload: state.payload, retain: true))
  }

  /// The daemon and the broker are both ready (after every connection of either): this
  /// machine's state is published.
  mutating func synced(into outbox: inout MeshOutbox) {
    guard shared, let state = sync.effective else { return }
    publish(state, into: &outbox)
  }

  /// A machine's state (this one's too, heard back or from before a restart).
  mutating func stateHeard(_ payload: [UInt8], links: MeshLinks, at time: MeshTime, into outbox: inout MeshOutbox) {
    guard shared else { return }
    let state: DNDState
    do throws(PayloadError) {
      state = try DNDState(payload: payload)
    } catch {
      outbox.log(.debug, "Dropped a do-not-disturb state: \(error).")
      return
    }
    // A change stamped far ahead would win over every real one for as long: refused, with the
    // bound a claim has.
    guard state.at <= time.wallMs &+ Claims.maxAhead else {
      outbox.log(.debug, "Dropped a do-not-disturb state made at \(state.at), more than a day ahead of this clock.")
      return
    }
    guard sync.heard(state), links.daemonReady else { return }
    hand(state, at: time, into: &outbox)
  }

  /// The daemon is ready: the greatest change heard meanwhile is handed to it, unless it is on
  /// that one or a greater one already.
  mutating func daemonReady(at time: MeshTime, into outbox: inout MeshOutbox) {
    guard shared, let state = sync.due() else { return }
    hand(state, at: time, into: &outbox)
  }

  private mutating func hand(_ state: DNDState, at time: MeshTime, into outbox: inout MeshOutbox) {
    sync.handing(state)
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
