import BadgeCore

/// The bridge as owner, one part of it: it claims the channels `share` names unless another
/// machine claimed them first, publishes their states (coalesced, retained) on its own subtree,
/// gives way to an earlier claim and releases what is no longer shared. A state counts only
/// from its owner's subtree; those that cannot count are refused with a reason
/// (`StateRefusals`). The writes other machines send its
/// channels are `IncomingWrites`'.
///
/// Home Assistant follows what it owns: the announcer is handed in where a channel is claimed
/// or let go.
struct OwnerRole {
  private let config: MeshConfig
  private let topics: MeshTopics
  private var host: String { config.host }
  private(set) var claims: Claims
  /// Shared channels this machine gave way on, each logged once.
  private var yielded: Set<ChannelName> = []
  /// The state of each channel owned here as it was last published, to tell the broker's
  /// echo of it from a state someone else wrote in this machine's name.
  private var published: [ChannelName: ChannelState] = [:]
  private var coalescer = StateCoalescer<ChannelState>()
  private var refusals = StateRefusals()

  init(config: MeshConfig, topics: MeshTopics) {
    self.config = config
    self.topics = topics
    claims = Claims(host: config.host)
  }

  /// A new broker connection: every state is published afresh on it.
  mutating func brokerConnected() { coalescer.reset() }

  /// The daemon went: the states it reported go with it.
  mutating func daemonClosed() { coalescer.reset() }

  /// Whether a state of `channel` fits among the channels known (`MeshLimits.maxChannels`).
  func hasRoom(for channel: ChannelName) -> Bool {
    claims.owner(of: channel) != nil || claims.owners.count < MeshLimits.maxChannels
  }

  /// With the daemon's states and the broker's claims both known: claims and publishes what is
  /// shared here, looks up shared channels held here that the daemon did not list, releases
  /// what is no longer shared.
  mutating func reconcile(
    _ localStates: [ChannelName: DaemonLink.LocalState], links: MeshLinks, at time: MeshTime,
    announcer: inout HomeAssistantAnnouncer, into outbox: inout MeshOutbox
  ) {
    for (channel, state) in localStates.sorted(by: { $0.key < $1.key }) {
      own(channel, state, links: links, at: time, announcer: &announcer, into: &outbox)
    }
    for channel in claims.held.sorted() where localStates[channel] == nil {
      if config.shares(channel) {
        outbox.send(.watch([ChannelPattern(channel.description)!]), .watchOne)
      } else {
        release(channel, announcer: &announcer, into: &outbox)
      }
    }
  }

  /// Claims a shared channel unless another machine owns it, and publishes its state
  /// (coalesced) while this machine owns it.
  mutating func own(
    _ channel: ChannelName, _ local: DaemonLink.LocalState, links: MeshLinks, at time: MeshTime,
    announcer: inout HomeAssistantAnnouncer, into outbox: inout MeshOutbox
  ) {
    guard links.daemonReady && links.synced else { return }
    let claim = claims.claim(channel, now: time.wallMs)
    guard claim.host == host else {
      if yielded.insert(channel).inserted {
        outbox.log(
          .notice, "\(channel) is shared by \(claim.host), which claimed it first; it is mirrored here instead.",
          [.channel(channel)])
      }
      return
    }
    yielded.remove(channel)
    let state = ChannelState(local.figures, owner: host, claimed: claim.claimed)
    if let now = coalescer.offer(channel, state, now: time.monotonic) { publishState(channel, now, into: &outbox) }
    announcer.announce(channel, into: &outbox)
  }

  private mutating func publishState(_ channel: ChannelName, _ state: ChannelState, into outbox: inout MeshOutbox) {
    guard claims.isHeldHere(channel) else { return }
    published[channel] = state
    outbox.publish(MeshMessage(topic: topics.ownState(of: channel), payload: state.payload, retain: true))
  }

  /// Publishes the channel's state now, whatever waits: the retained state must name this
  /// machine again (another wrote over it).
  private mutating func republish(
    _ channel: ChannelName, _ local: DaemonLink.LocalState?, into outbox: inout MeshOutbox
  ) {
    guard let local, let claim = claims.owner(of: channel), claim.host == host else { return }
    coalescer.drop(channel)
    publishState(channel, ChannelState(local.figures, owner: host, claimed: claim.claimed), into: &outbox)
  }

  /// Stops sharing a channel this machine owned: its Home Assistant config and its retained
  /// state go (empty retained payloads), so mirrors forget it.
  private mutating func release(
    _ channel: ChannelName, announcer: inout HomeAssistantAnnouncer, into outbox: inout MeshOutbox
  ) {
    guard claims.isHeldHere(channel) else { return }
    announcer.withdraw(channel, into: &outbox)
    claims.release(channel)
    coalescer.drop(channel)
    published[channel] = nil
    outbox.publish(MeshMessage(topic: topics.ownState(of: channel), payload: [], retain: true))
    outbox.log(.info, "Stopped sharing \(channel): no longer in [mqtt] share.", [.channel(channel)])
  }

  /// A state on `topic` that cannot count, refused with `reason` (logged once per topic).
  mutating func refuse(_ topic: String, _ reason: String, into outbox: inout MeshOutbox) {
    refusals.refuse(topic, reason, into: &outbox)
  }

  /// A channel's retained state from `publisher`'s subtree, checked against the claims; whether it
  /// is another owner's to mirror here. `local` is the daemon's state of the channel, when it
  /// reported one.
  mutating func stateHeard(
    _ channel: ChannelName, _ state: ChannelState, from publisher: String, local: DaemonLink.LocalState?,
    links: MeshLinks, at time: MeshTime, announcer: inout HomeAssistantAnnouncer, into outbox: inout MeshOutbox
  ) -> Bool {
    let topic = topics.state(of: channel, by: publisher)
    guard state.owner == publisher else {
      refuse(topic, "it names \(state.owner) as the owner, and only \(state.owner) may publish that", into: &outbox)
      return false
    }
    let claim = Claim(host: state.owner, claimed: state.claimed)
    switch claims.heard(channel, claim, now: time.wallMs) {
    case .refused(let reason):
      refuse(topic, reason, into: &outbox)
      return false
    case .owner:
      guard state.owner == host else { return true }
      if !config.shares(channel) {
        release(channel, announcer: &announcer, into: &outbox)
      } else if let ours = published[channel], state != ours, let local {
        // Not the state last published from here: an earlier one coming back during a burst,
        // or one another client wrote in this machine's name, which mirrors would show.
        // This machine's latest goes out again, coalesced like any change.
        outbox.log(
          .debug, "Heard a state of \(channel) in this machine's name that is not its latest; publishing it again.",
          [.channel(channel)])
        own(channel, local, links: links, at: time, announcer: &announcer, into: &outbox)
      }
      return false
    case .earlier(let previous):
      if state.owner == host {
        // This machine's claim from before a restart: kept while the channel is shared.
        if !config.shares(channel) {
          release(channel, announcer: &announcer, into: &outbox)
        } else if let local {
          own(channel, local, links: links, at: time, announcer: &announcer, into: &outbox)
        }
        return false
      }
      if let previous, previous.host == host {
        outbox.log(
          .notice, "\(channel) was claimed earlier by \(state.owner); giving way and mirroring it here.",
          [.channel(channel)])
        yielded.insert(channel)
        coalescer.drop(channel)
        published[channel] = nil
        announcer.withdrawIfAnnounced(channel, into: &outbox)
        // This machine's retained state goes, so that no later subscriber takes its claim.
        outbox.publish(MeshMessage(topic: topics.ownState(of: channel), payload: [], retain: true))
      } else if let previous {
        outbox.log(
          .info, "\(channel) is owned by \(state.owner), whose claim is earlier than \(previous.host)'s.",
          [.channel(channel)])
      }
      return true
    case .later(let owner):
      // (Each owner's state has a topic of its own: the owner's is still there.)
      outbox.log(
        .debug, "Dropped a state of \(channel) naming \(state.owner): \(owner.host) claimed it first.",
        [.channel(channel)])
      return false
    }
  }

  /// An empty retained state on `publisher`'s subtree: when it owns the channel, it stopped
  /// sharing it. Returns the host that owned it, whose mirror goes; `nil` when nothing changed
  /// (another host's state went, one that had given way or never counted; or this machine's
  /// own was emptied while it holds the channel, and is published again).
  mutating func releaseHeard(
    _ channel: ChannelName, from publisher: String, local: DaemonLink.LocalState?, into outbox: inout MeshOutbox
  ) -> String? {
    guard claims.owner(of: channel)?.host == publisher else { return nil }
    if claims.isHeldHere(channel) {
      if config.shares(channel) { republish(channel, local, into: &outbox) }
      return nil
    }
    return claims.release(channel)?.host
  }

  /// After `releaseHeard` and the mirror's going: the channel is this machine's to claim when
  /// it shares it.
  mutating func takeOver(
    _ channel: ChannelName, releasedBy owner: String, local: DaemonLink.LocalState?, links: MeshLinks,
    at time: MeshTime, announcer: inout HomeAssistantAnnouncer, into outbox: inout MeshOutbox
  ) {
    outbox.log(.info, "\(owner) stopped sharing \(channel).", [.channel(channel)])
    yielded.remove(channel)
    if config.shares(channel), let local {
      own(channel, local, links: links, at: time, announcer: &announcer, into: &outbox)
    }
  }

  /// Coalesced states now due.
  mutating func tick(at time: MeshTime, into outbox: inout MeshOutbox) {
    for (channel, state) in coalescer.due(now: time.monotonic) { publishState(channel, state, into: &outbox) }
  }

  /// When a coalesced state is due; `nil` when none waits.
  var nextDeadline: UInt64? { coalescer.nextDeadline }
}
