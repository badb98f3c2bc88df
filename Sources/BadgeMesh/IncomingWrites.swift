import BadgeCore

/// Where the answer to a write carried out here goes.
struct ReplyRoute: Equatable, Sendable {
  var topic: String
  var correlation: [UInt8]?
}

/// The writes other machines send the channels owned here, as one part of the bridge: each is
/// carried out by this machine's daemon when the channel is held here, its answer published on
/// this machine's reply topic for the writer; those that come before the retained states (claims not known yet)
/// wait for them. The claims are the owner's role's, passed in.
struct IncomingWrites {
  /// A write heard before the retained states, carried out once they are in.
  private struct EarlyCommand {
    var channel: ChannelName
    var command: ChannelCommand
    var route: ReplyRoute?
  }

  static let maxEarlyCommands = 1000

  private let topics: MeshTopics
  private var earlyCommands: [EarlyCommand] = []

  init(topics: MeshTopics) { self.topics = topics }

  /// The broker went: writes held for its retained states go with it.
  mutating func brokerDown() { earlyCommands.removeAll() }

  /// A write for a channel, from another machine (or anything with access to the topic).
  mutating func commandHeard(
    _ channel: ChannelName, _ message: IncomingMessage, claims: Claims, links: MeshLinks,
    into outbox: inout MeshOutbox
  ) {
    let command: ChannelCommand
    do throws(PayloadError) {
      command = try ChannelCommand(payload: message.payload)
    } catch {
      outbox.log(.debug, "Dropped a command for \(channel): \(error).", [.channel(channel)])
      return
    }
    var route: ReplyRoute?
    if let topic = message.responseTopic {
      if let writer = topics.replyWriter(topic) {
        route = ReplyRoute(
          topic: topics.reply(from: topics.host, to: writer),
          correlation: message.correlation ?? command.id.map { Array($0.utf8) })
      } else {
        outbox.log(
          .debug,
          "A command for \(channel) asks for its answer on \(topic.truncated(toUTF8: 200)), which is no host's "
            + "reply topic; no answer will be sent."
        )
      }
    }
    guard links.synced else {
      guard earlyCommands.count < IncomingWrites.maxEarlyCommands else {
        outbox.log(
          .debug, "Dropped a command for \(channel) that came before the retained states: too many wait already.")
        return
      }
      earlyCommands.append(EarlyCommand(channel: channel, command: command, route: route))
      return
    }
    carryOut(channel, command, route, claims: claims, links: links, into: &outbox)
  }

  /// The retained states are in: the writes that came before them are carried out.
  mutating func synced(claims: Claims, links: MeshLinks, into outbox: inout MeshOutbox) {
    let early = earlyCommands
    earlyCommands.removeAll()
    for command in early {
      carryOut(command.channel, command.command, command.route, claims: claims, links: links, into: &outbox)
    }
  }

  /// Carries out a command on a channel this machine owns; others' commands are ignored.
  private func carryOut(
    _ channel: ChannelName, _ command: ChannelCommand, _ route: ReplyRoute?, claims: Claims, links: MeshLinks,
    into outbox: inout MeshOutbox
  ) {
    guard claims.isHeldHere(channel) else {
      outbox.log(.debug, "Ignored \(command.op) on \(channel): not owned here.")
      return
    }
    guard links.daemonReady else {
      outbox.log(.debug, "Ignored \(command.op) on \(channel): badged is not reachable; its sender sends it again.")
      return
    }
    outbox.send(DaemonLink.request(channel, command), id: command.id, .apply(channel, command, route))
  }

  /// The daemon's reply to a write carried out here: the answer goes to this machine's reply
  /// topic for the writer when the writer asked for one.
  func applyAnswered(
    _ channel: ChannelName, _ command: ChannelCommand, _ route: ReplyRoute?, refusal: String?,
    into outbox: inout MeshOutbox
  ) {
    if let refusal { outbox.log(.debug, "badged refused \(command.op) on \(channel) for another machine: \(refusal)") }
    guard let route else { return }
    let answer = CommandAnswer(id: command.id, error: refusal)
    outbox.publish(
      MeshMessage(topic: route.topic, payload: answer.payload, retain: false, correlation: route.correlation))
  }
}
