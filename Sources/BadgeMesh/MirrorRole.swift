import BadgeCore
import BadgeProtocol

/// The bridge as mirror, one part of it: other owners' states put into this machine's daemon
/// (`MIRROR`), each once, and hidden ones (a local channel of the same name) logged once; the
/// hosts heard from and whether they are online, which mark their channels stale; and the
/// writes the daemon forwards to mirrored channels, delivered until their owners answer
/// (`ForwardQueue`). Who owns a channel is the owner's role's `Claims`, passed in.
struct MirrorRole {
  /// What a host's messages said last.
  struct HostInfo {
    var online: Bool?
    /// When this machine last heard from it (unix seconds).
    var lastHeard: Int64?
  }

  private let config: MeshConfig
  private let topics: MeshTopics
  /// The latest state of each channel mirrored here, as its owner published it.
  private var mirrors: [ChannelName: ChannelState] = [:]
  /// Mirrored channels that a local channel of the same name hides, each logged once.
  private var hidden: Set<ChannelName> = []
  /// Whether badged refused a mirror for want of room (`[limits] max_mirrored`) since it was
  /// last connected: said once, since badged itself counts those refusals in its log.
  private var roomRefused = false
  private var hosts: [String: HostInfo] = [:]
  /// The owners heard from (a status or a state) on this broker connection. The first word of
  /// one after the sync marker means it came back on this connection after this machine was
  /// synced (a broker restarted without persistence: the owner subscribes and publishes anew,
  /// whether or not this machine ever saw it go), and what it may have missed goes at once.
  private var heardOnThisConnection: Set<String> = []
  private(set) var forwards = ForwardQueue()

  init(config: MeshConfig, topics: MeshTopics) {
    self.config = config
    self.topics = topics
  }

  /// The channels mirrored here.
  var channels: [ChannelName] { mirrors.keys.sorted() }
  var mirroredCount: Int { mirrors.count }
  /// How many writes wait for their owners.
  var pendingWrites: Int { forwards.count }

  /// Whether a message of `host` fits among the hosts known (`MeshLimits.maxHosts`).
  func hasRoom(forHost host: String) -> Bool { hosts[host] != nil || hosts.count < MeshLimits.maxHosts }

  /// A new broker connection: every write waiting is sent again on it.
  mutating func brokerConnected() {
    forwards.markAllUnsent()
    heardOnThisConnection.removeAll()
  }

  /// The broker went: every owner is stale here (`markStale`, when the daemon was told they
  /// were not) until it is back; what the hosts said is heard again, retained, on the next
  /// connection.
  mutating func brokerDown(markStale: Bool, into outbox: inout MeshOutbox) {
    if markStale {
      // Every owner known, from its status or only from its states.
      for (name, info) in hosts.sorted(by: { $0.key < $1.key }) { sendStale(name, info, brokerUp: false, &outbox) }
    }
    for name in hosts.keys { hosts[name]?.online = nil }
  }

  /// The daemon went: it lists its outbox again on the next connection.
  mutating func daemonClosed() {
    forwards.removeAll()
    roomRefused = false
  }

  /// The daemon is ready: it is told every mirror and every host's standing.
  func daemonReady(synced: Bool, into outbox: inout MeshOutbox) {
    for (channel, state) in mirrors.sorted(by: { $0.key < $1.key }) {
      outbox.send(DaemonLink.mirror(channel, state), .mirror(channel))
    }
    for (name, info) in hosts.sorted(by: { $0.key < $1.key }) where info.online != nil {
      sendStale(name, info, brokerUp: synced, &outbox)
    }
  }

  private func sendStale(_ name: String, _ info: HostInfo, brokerUp: Bool, _ outbox: inout MeshOutbox) {
    let stale = !(brokerUp && info.online == true)
    outbox.send(DaemonLink.stale(host: name, stale, since: info.lastHeard))
  }

  // MARK: Mirrors

  /// Shows another machine's state of a channel here. `synced`: the sync marker of this broker
  /// connection came back before it.
  mutating func mirror(
    _ channel: ChannelName, _ state: ChannelState, daemonReady: Bool, synced: Bool = false, at time: MeshTime,
    into outbox: inout MeshOutbox
  ) {
    var info = hosts[state.owner] ?? HostInfo()
    info.lastHeard = time.wallMs / 1000
    hosts[state.owner] = info
    if heardOnThisConnection.insert(state.owner).inserted && synced {
      // Its first word on this connection, after the sync marker: it came back on it.
      let owner = state.owner
      let known = mirrors
      sendAgain({ $0 == channel || known[$0]?.owner == owner }, at: time, into: &outbox)
    }
    guard config.mirrors(channel) || config.shares(channel) else { return }
    guard mirrors[channel] != state else { return }
    mirrors[channel] = state
    if daemonReady { outbox.send(DaemonLink.mirror(channel, state), .mirror(channel)) }
  }

  /// The owner stopped sharing the channel: its mirror goes.
  mutating func forget(_ channel: ChannelName, daemonReady: Bool, into outbox: inout MeshOutbox) {
    guard mirrors.removeValue(forKey: channel) != nil else { return }
    hidden.remove(channel)
    if daemonReady { outbox.send(.forgetMirror(channel)) }
  }

  /// The daemon's reply to a `MIRROR`: a refusal (a local channel of that name) is logged once;
  /// one for want of room once while the daemon stays connected, however many channels the
  /// broker holds.
  mutating func mirrorAnswered(_ channel: ChannelName, refusal: String?, into outbox: inout MeshOutbox) {
    guard let refusal else {
      hidden.remove(channel)
      return
    }
    if refusal.hasPrefix("\(ProtocolError.Code.full.rawValue) ") {
      if !roomRefused {
        roomRefused = true
        outbox.log(.warning, "badged has no room for more mirrored channels (\(refusal)); they are not shown here.")
      }
      return
    }
    if hidden.insert(channel).inserted {
      let owner = mirrors[channel]?.owner ?? "another machine"
      outbox.log(.notice, "Not showing \(channel) from \(owner) here: \(refusal).", [.channel(channel)])
    }
  }

  // MARK: Hosts

  /// A host's status: `online`, or `offline` (also its last will).
  mutating func statusHeard(
    _ name: String, _ payload: [UInt8], claims: Claims, links: MeshLinks, at time: MeshTime,
    into outbox: inout MeshOutbox
  ) {
    let online: Bool
    if payload.elementsEqual("online".utf8) {
      online = true
    } else if payload.elementsEqual("offline".utf8) {
      online = false
    } else {
      outbox.log(.debug, "Dropped a status of \(name) that is neither online nor offline.")
      return
    }
    guard name != config.host else {
      // This machine's last will from an earlier connection, delivered after this one began:
      // say online again, or the others would take this machine for gone.
      if !online && links.daemonReady && links.brokerUp {
        outbox.log(
          .info, "The broker said this machine went offline (an earlier connection's last will); saying online again.")
        outbox.publish(.hostStatus(online: true, on: topics.ownStatus))
      }
      return
    }
    guard hasRoom(forHost: name) else {
      outbox.log(.debug, "Dropped a status of \(name): \(MeshLimits.maxHosts) hosts are known already.")
      return
    }
    var info = hosts[name] ?? HostInfo()
    let changed = info.online != online
    info.online = online
    if online { info.lastHeard = time.wallMs / 1000 }
    hosts[name] = info
    if changed && links.daemonReady { sendStale(name, info, brokerUp: links.brokerUp, &outbox) }
    guard online else { return }
    heardOnThisConnection.insert(name)
    // Back, or saying online again without ever seeming gone (it reconnected, or its daemon
    // did): whatever it may have missed is sent again, in order.
    if links.synced { sendAgain({ claims.owner(of: $0)?.host == name }, at: time, into: &outbox) }
  }

  /// Sends again, in order, the window of each channel `owns` picks (and any write of a window
  /// not sent yet): its owner is back, and whatever it missed goes now.
  private mutating func sendAgain(_ owns: (ChannelName) -> Bool, at time: MeshTime, into outbox: inout MeshOutbox) {
    for write in forwards.toSend(now: time.monotonic, again: owns) { publishWrite(write, into: &outbox) }
  }

  // MARK: Forwarded writes

  /// The daemon handed over a write to a mirrored channel.
  mutating func forwardTaken(_ write: ForwardedWrite, synced: Bool, at time: MeshTime, into outbox: inout MeshOutbox) {
    guard forwards.add(write) else { return }
    sendNext(in: write.channel, synced: synced, at: time, into: &outbox)
    outbox.statusChanged = true
  }

  /// Sends the writes not yet sent on this connection that are the first of their channels,
  /// in order.
  mutating func sendForwards(synced: Bool, at time: MeshTime, into outbox: inout MeshOutbox) {
    guard synced else { return }
    for write in forwards.toSend(now: time.monotonic) { publishWrite(write, into: &outbox) }
  }

  /// Sends the writes of the channel's window that wait (`ForwardQueue.window`).
  private mutating func sendNext(
    in channel: ChannelName, synced: Bool, at time: MeshTime, into outbox: inout MeshOutbox
  ) {
    guard synced else { return }
    for write in forwards.toSend(in: channel, now: time.monotonic) { publishWrite(write, into: &outbox) }
  }

  private func publishWrite(_ write: ForwardedWrite, into outbox: inout MeshOutbox) {
    var expiry: UInt32?
    if case .pulse(let ms) = write.command.write {
      // A pulse that arrives late is pointless: let the broker drop it when its window is over.
      expiry = UInt32(max(1, ((ms ?? 3000) + 999) / 1000))
    }
    outbox.publish(
      MeshMessage(
        topic: topics.command(to: write.channel), payload: write.command.payload, retain: false,
        responseTopic: topics.reply(from: mirrors[write.channel]?.owner ?? config.host, to: config.host),
        correlation: Array(write.id.utf8), expirySeconds: expiry))
  }

  /// Writes whose answers are overdue, sent again.
  mutating func tick(at time: MeshTime, into outbox: inout MeshOutbox) {
    let late = forwards.overdue(now: time.monotonic)
    guard !late.isEmpty else { return }
    outbox.log(.debug, "No answer yet for \(late.count) forwarded writes; sending them again.")
    for write in late { publishWrite(write, into: &outbox) }
  }

  /// When an answer is overdue; `nil` when none is awaited.
  var nextDeadline: UInt64? { forwards.nextRetry }

  /// An answer to a write of this machine's, from `host`'s subtree: taken only when `host`
  /// owns the write's channel.
  mutating func answerHeard(
    _ message: IncomingMessage, from host: String, claims: Claims, links: MeshLinks, at time: MeshTime,
    into outbox: inout MeshOutbox
  ) {
    let answer: CommandAnswer
    do throws(PayloadError) {
      answer = try CommandAnswer(payload: message.payload)
    } catch {
      outbox.log(.debug, "Dropped an answer: \(error).")
      return
    }
    guard let id = message.correlation.map({ String(decoding: $0, as: UTF8.self) }) ?? answer.id,
      RequestID.isValidToken(id),
      answer.id == nil || answer.id == id
    else {
      outbox.log(.debug, "Dropped an answer whose correlation data is no request id, or not its own.")
      return
    }
    if let write = forwards.writes.first(where: { $0.id == id }), claims.owner(of: write.channel)?.host != host {
      outbox.log(
        .debug, "Dropped an answer to \(id) from \(host): it does not own \(write.channel).", [.channel(write.channel)])
      return
    }
    switch forwards.answered(id, answer) {
    case .delivered(let write, let refusal):
      if let refusal {
        let owner = claims.owner(of: write.channel)?.host ?? "its owner"
        outbox.log(
          .notice, "\(owner) refused \(write.command.op) on \(write.channel): \(refusal); its state stands.",
          [.channel(write.channel)])
      }
      // Said whether or not the daemon's snapshot is in yet: the queue holds only what this
      // connection listed, so the daemon is connected, and an answer that comes while the
      // greeting still reads a long outbox would otherwise be lost, its write held there.
      outbox.send(.delivered(id))
      outbox.statusChanged = true
      // The writes of its channel that waited for this answer.
      sendNext(in: write.channel, synced: links.synced, at: time, into: &outbox)
    case .retry(let write, let reason):
      outbox.log(
        .debug,
        "The owner of \(write.channel) could not apply \(write.command.op) yet (\(reason)); it is sent again later.")
    case .unknown:
      outbox.log(.debug, "Dropped an answer to \(id): no such write waits.")
    }
  }
}
