import BadgeCore

/// Text as one topic level: the one place a channel or host name becomes part of a topic.
///
/// MQTT reads `/` as a level separator, `+` and `#` as wildcards in subscriptions, and a
/// leading `$` as the broker's own topics. Those are percent-encoded, and so is `%` itself
/// (and NUL, which no topic may hold), so the encoding is reversible. Channel names cannot
/// hold any of them today; the escaping keeps topics sound if the naming rule ever widens, and
/// `unescape` takes only what `escape` writes, so each name has exactly one topic.
public enum TopicLevel {
  public static func escape(_ text: String) -> String {
    var out = ""
    for (index, scalar) in text.unicodeScalars.enumerated() {
      switch scalar {
      case "/": out += "%2F"
      case "+": out += "%2B"
      case "#": out += "%23"
      case "%": out += "%25"
      case "\u{0}": out += "%00"
      case "$" where index == 0: out += "%24"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// The text `escape` made `level` from; `nil` for a level `escape` never writes (a stray `%`,
  /// a sequence it does not use, lower-case hex, a raw `/`, `+`, `#` or leading `$`).
  public static func unescape(_ level: Substring) -> String? {
    var out = ""
    var scalars = level.unicodeScalars[...]
    while let scalar = scalars.popFirst() {
      guard scalar == "%" else {
        out.unicodeScalars.append(scalar)
        continue
      }
      let hex = String(String.UnicodeScalarView(scalars.prefix(2)))
      scalars = scalars.dropFirst(2)
      switch hex {
      case "2F": out += "/"
      case "2B": out += "+"
      case "23": out += "#"
      case "25": out += "%"
      case "00": out += "\u{0}"
      case "24" where out.isEmpty: out += "$"
      default: return nil
      }
    }
    return escape(out) == level ? out : nil
  }
}

/// The topics of one user's machines under `prefix` (docs/MQTT.md lists them):
///
/// - `<prefix>/host/<host>/status`: `online` (retained) while the host's bridge is connected
///   and its daemon reachable, `offline` (retained, also its last will) otherwise;
/// - `<prefix>/host/<host>/reply`: owners' answers to this host's commands;
/// - `<prefix>/host/<host>/sync`: the marker a bridge sends itself after subscribing;
/// - `<prefix>/ch/<channel>/state`: the owner's state of a channel, retained;
/// - `<prefix>/ch/<channel>/cmd`: writes to a channel, for its owner;
/// - `<prefix>/host/<host>/dnd`: the host's do-not-disturb, retained, when shared;
/// - `<prefix>/dnd/set`: requests to change shared do-not-disturb.
public struct MeshTopics: Sendable {
  public let prefix: String
  /// This machine's host name.
  public let host: String

  public init(prefix: String, host: String) {
    self.prefix = prefix
    self.host = host
  }

  public func status(of host: String) -> String { "\(prefix)/host/\(TopicLevel.escape(host))/status" }
  public func reply(to host: String) -> String { "\(prefix)/host/\(TopicLevel.escape(host))/reply" }
  public var ownStatus: String { status(of: host) }
  public var ownReply: String { reply(to: host) }
  public var ownSync: String { "\(prefix)/host/\(TopicLevel.escape(host))/sync" }
  public func state(of channel: ChannelName) -> String {
    "\(prefix)/ch/\(TopicLevel.escape(channel.description))/state"
  }
  public func command(to channel: ChannelName) -> String {
    "\(prefix)/ch/\(TopicLevel.escape(channel.description))/cmd"
  }
  public func dnd(of host: String) -> String { "\(prefix)/host/\(TopicLevel.escape(host))/dnd" }
  public var ownDND: String { dnd(of: host) }
  public var dndSet: String { "\(prefix)/dnd/set" }

  /// What a topic a message came on is about; `nil` for a topic that is none of ours or whose
  /// names do not parse.
  public enum Incoming: Equatable, Sendable {
    case state(ChannelName)
    case command(ChannelName)
    case status(host: String)
    case reply
    case sync
    case dndState
    case dndSet
    case homeAssistantStatus
  }

  public func classify(_ topic: String) -> Incoming? {
    if topic == HomeAssistant.statusTopic { return .homeAssistantStatus }
    guard topic.hasPrefix(prefix + "/") else { return nil }
    let levels = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
    switch (levels.count, levels.first) {
    case (2, "dnd"):
      return levels[1] == "set" ? .dndSet : nil
    case (3, "ch"):
      guard let text = TopicLevel.unescape(levels[1]), let name = ChannelName(text) else { return nil }
      return levels[2] == "state" ? .state(name) : levels[2] == "cmd" ? .command(name) : nil
    case (3, "host"):
      guard let host = TopicLevel.unescape(levels[1]), MeshConfig.isHostName(host) else { return nil }
      switch levels[2] {
      case "status": return .status(host: host)
      case "reply": return host == self.host ? .reply : nil
      case "sync": return host == self.host ? .sync : nil
      case "dnd": return .dndState
      default: return nil
      }
    default: return nil
    }
  }

  /// Whether `topic` is a host's reply topic under this prefix: the only topics an owner
  /// answers on, so that a command cannot make it publish anywhere else.
  public func isReplyTopic(_ topic: String) -> Bool {
    guard topic.hasPrefix(prefix + "/host/"), topic.hasSuffix("/reply") else { return false }
    let middle = topic.dropFirst(prefix.count + 6).dropLast(6)
    return TopicLevel.unescape(middle).map(MeshConfig.isHostName) ?? false
  }

  /// The retained topics the bridge subscribes to after each connect, with QoS 0: host
  /// statuses, channel states, shared do-not-disturb's state, Home Assistant's status. On each
  /// subscribe the broker sends the retained message of every one, the latest, and it queues
  /// none of them for a bridge that is away: a queue of old states would be sent first on its
  /// return, and once the broker's queue for it is full (mosquitto's `max_queued_messages`)
  /// the retained states that matter would be dropped.
  public func retainedSubscriptions(dndShared: Bool, homeAssistant: Bool) -> [String] {
    var topics = ["\(prefix)/host/+/status", "\(prefix)/ch/+/state"]
    if dndShared { topics.append("\(prefix)/host/+/dnd") }
    if homeAssistant { topics.append(HomeAssistant.statusTopic) }
    return topics
  }

  /// The topics of messages meant for this machine, subscribed to after the retained ones with
  /// QoS 1 (the broker keeps them while this machine is away, for as long as its session
  /// lasts): commands, answers, do-not-disturb's changes, and the sync marker last, one publish
  /// away (see `MeshCore`).
  public func messageSubscriptions(dndShared: Bool) -> [String] {
    var topics = ["\(prefix)/ch/+/cmd", ownReply]
    if dndShared { topics.append(dndSet) }
    topics.append(ownSync)
    return topics
  }
}
