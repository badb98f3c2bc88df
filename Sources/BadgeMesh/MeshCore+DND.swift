import BadgeCore

extension MeshCore {
  /// How long after applying another machine's change the daemon's report of it is taken as
  /// that change coming back, when the daemon does not say where it came from.
  static let dndEchoWindow: UInt64 = 2_000_000

  /// The daemon pushed a do-not-disturb change.
  func localDNDChanged(_ local: DaemonLink.LocalDND, at time: MeshTime) {
    guard config.dnd == .shared else { return }
    if let from = local.from, from != host { return }  // another machine's, applied here
    if let applied = appliedDND, time.monotonic < applied.at + MeshCore.dndEchoWindow, applied.state.on == local.on,
      local.from == nil
    {
      appliedDND = nil
      return
    }
    made(local, at: time)
  }

  /// Do-not-disturb as the daemon reported it when the bridge started watching: published
  /// when it is newer than what the other machines published, so a change made while the
  /// bridge was away reaches them, and one they made since is not overwritten by an older one.
  /// A state never changed there (no `at=`) is published as made at `DNDState.neverChanged`:
  /// the state topic then says something from the first start (Home Assistant's switch reads
  /// it), and every real change, of any machine, is newer.
  func localDNDSnapshot(_ local: DaemonLink.LocalDND, at time: MeshTime) {
    guard config.dnd == .shared, local.from == nil || local.from == host else { return }
    let at = local.at ?? DNDState.neverChanged
    guard let state = dnd.found(on: local.on, until: until(local, at: time), at: at) else { return }
    share(state)
  }

  private func made(_ local: DaemonLink.LocalDND, at time: MeshTime) {
    share(dnd.made(on: local.on, until: until(local, at: time), now: local.at ?? time.wallMs))
  }

  /// The wall-clock end of a timed do-not-disturb the daemon reports with what is left of it.
  private func until(_ local: DaemonLink.LocalDND, at time: MeshTime) -> Int64 {
    local.on && local.leftMs > 0 ? time.wallMs + Int64(local.leftMs) : 0
  }

  /// Publishes a change of this machine's now, or once the broker's retained states are in.
  private func share(_ state: DNDState) {
    if synced {
      publishDND(state)
    } else {
      pendingLocalDND = state
    }
  }

  func publishDND(_ state: DNDState) {
    publish(MeshMessage(topic: topics.dndState, payload: state.payload, retain: true))
  }

  /// Another machine's change (or this machine's, heard back).
  func dndStateHeard(_ payload: [UInt8], at time: MeshTime) {
    guard config.dnd == .shared else { return }
    let state: DNDState
    do throws(PayloadError) {
      state = try DNDState(payload: payload)
    } catch {
      logger.debug("Dropped a do-not-disturb state: \(error).")
      return
    }
    switch dnd.heard(state) {
    case .apply:
      if daemonReady {
        applyRemoteDND(state, at: time)
      } else {
        pendingRemoteDND = state
      }
    case .own, .stale:
      break
    }
  }

  func applyRemoteDND(_ state: DNDState, at time: MeshTime) {
    appliedDND = (state, time.monotonic)
    send(DaemonLink.remoteDND(state, nowMs: time.wallMs))
  }

  /// `ON`, `OFF` or a timed one, from Home Assistant's switch or anything else: made here as a
  /// change of this machine's, which its daemon then reports and the bridge publishes.
  func dndSetHeard(_ payload: [UInt8], at time: MeshTime) {
    guard config.dnd == .shared else { return }
    let request: DNDRequest
    do throws(PayloadError) {
      request = try DNDRequest(payload: payload)
    } catch {
      logger.debug("Dropped a do-not-disturb request: \(error).")
      return
    }
    guard daemonReady else {
      logger.debug("Ignored a do-not-disturb request: badged is not reachable.")
      return
    }
    switch request {
    case .off:
      send(DaemonLink.localDND(on: false, forMs: nil))
    case .on(let until):
      var forMs: Int64?
      if let until {
        let left = until - time.wallMs
        guard left > 0, left <= DaemonLink.maxDNDMs else {
          logger.debug("Ignored a do-not-disturb request whose end is past or more than 30 days away.")
          return
        }
        forMs = left
      }
      send(DaemonLink.localDND(on: true, forMs: forMs))
    }
  }
}
