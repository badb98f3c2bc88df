import BadgeCore

/// Home Assistant's discovery, as one part of the bridge: the configs of the channels owned
/// here and of the do-not-disturb switch, each sent once a connection, all again after Home
/// Assistant's birth message (`online` on `homeassistant/status`), emptied when a channel goes.
/// The configs themselves are `HomeAssistant`'s.
///
/// Callers pass only what the bridge may announce: channels held here, once the broker's
/// retained states are in.
struct HomeAssistantAnnouncer {
  private let homeAssistant: HomeAssistant
  /// `home_assistant` in `[mqtt]`.
  private let enabled: Bool
  /// Whether do-not-disturb is shared: its switch is announced, else emptied.
  private let dndShared: Bool
  /// Channel configs sent on this connection.
  private var announced: Set<ChannelName> = []
  private var switchAnnounced = false
  /// When to send every config again, after Home Assistant's birth message.
  private var againAt: UInt64?

  init(config: MeshConfig, topics: MeshTopics) {
    homeAssistant = HomeAssistant(topics: topics)
    enabled = config.homeAssistant
    dndShared = config.dnd == .shared
  }

  /// A new connection to the broker: every config is sent again on it.
  mutating func reset() {
    announced.removeAll()
    switchAnnounced = false
    againAt = nil
  }

  /// A message on Home Assistant's status topic: after its `online`, every config goes again,
  /// after this machine's delay. Before the sync marker the configs go out anyway, once the
  /// marker is back.
  mutating func statusHeard(_ payload: [UInt8], synced: Bool, at time: MeshTime) {
    if payload.elementsEqual("online".utf8) && enabled && synced && againAt == nil {
      againAt = time.monotonic + homeAssistant.birthDelay
    }
  }

  /// Configs for `held` (the channels owned here) and the do-not-disturb switch, those not
  /// yet sent on this connection. Without `dnd = shared` the switch's config is emptied
  /// instead, so that a switch left from when it was shared goes.
  mutating func announceAll(_ held: [ChannelName], into outbox: inout MeshOutbox) {
    guard enabled else { return }
    for channel in held { announce(channel, into: &outbox) }
    if !switchAnnounced {
      switchAnnounced = true
      let payload = dndShared ? homeAssistant.switchConfig : []
      outbox.publish(MeshMessage(topic: homeAssistant.switchTopic, payload: payload, retain: true))
    }
  }

  /// The config of a channel owned here, unless sent on this connection already.
  mutating func announce(_ channel: ChannelName, into outbox: inout MeshOutbox) {
    guard enabled, announced.insert(channel).inserted else { return }
    outbox.publish(
      MeshMessage(topic: homeAssistant.sensorTopic(channel), payload: homeAssistant.sensorConfig(channel), retain: true)
    )
  }

  /// This machine stopped sharing the channel: its config goes (an empty retained payload).
  mutating func withdraw(_ channel: ChannelName, into outbox: inout MeshOutbox) {
    guard enabled else { return }
    outbox.publish(MeshMessage(topic: homeAssistant.sensorTopic(channel), payload: [], retain: true))
    announced.remove(channel)
  }

  /// This machine gave way on the channel to an earlier claim: its config goes if it was sent.
  mutating func withdrawIfAnnounced(_ channel: ChannelName, into outbox: inout MeshOutbox) {
    guard enabled, announced.remove(channel) != nil else { return }
    outbox.publish(MeshMessage(topic: homeAssistant.sensorTopic(channel), payload: [], retain: true))
  }

  /// Sends every config again when the birth message's delay is over.
  mutating func tick(at time: MeshTime, held: () -> [ChannelName], into outbox: inout MeshOutbox) {
    guard let due = againAt, time.monotonic >= due else { return }
    reset()
    announceAll(held(), into: &outbox)
  }

  /// When the configs go again; `nil` when they do not.
  var nextDeadline: UInt64? { againAt }
}
