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

/// The topics of one user's machines under `prefix` (docs/MQTT.md lists them). What a machine
/// publishes as itself is under its own subtree, `<prefix>/host/<host>/`, which the broker's
/// ACL lets only that machine write (contrib/mosquitto/acl), so that a state's owner is a fact
/// the broker vouches for, not a claim any machine can make:
///
/// - `<prefix>/host/<host>/status`: `online` (retained) while the host's bridge is connected
///   and its daemon reachable, `offline` (retained, also its last will) otherwise;
/// - `<prefix>/host/<host>/ch/<channel>/state`: the state of a channel the host owns, retained;
/// - `<prefix>/host/<owner>/reply/<writer>`: an owner's answers to the writer's commands;
/// - `<prefix>/host/<host>/sync`: the marker a bridge sends itself after subscribing;
/// - `<prefix>/ch/<channel>/cmd`: writes to a channel, for its owner;
/// - `<prefix>/host/<host>/dnd`: the host's do-not-disturb, retained, when shared;
/// - `<prefix>/dnd/set`: requests to change shared do-not-disturb.
///
/// `<prefix>/ch/<channel>/state`, where badged 0.1's bridges published states, is read only
/// to refuse it with a reason.
public struct MeshTopics: Sendable {
  public let prefix: String
  /// This machine's host name.
  public let host: String

  public init(prefix: String, host: String) {
    self.prefix = prefix
    self.host = host
  }

  /// The subtree `host` alone may write.
  private func subtree(_ host: String) -> String { "\(prefix)/host/\(TopicLevel.escape(host))" }

  public func status(of host: String) -> String { "\(subtree(host))/status" }
  /// Where `owner` answers the commands of `writer`.
  public func reply(from owner: String, to writer: String) -> String {
    "\(subtree(owner))/reply/\(TopicLevel.escape(writer))"
  }
  public var ownStatus: String { status(of: host) }
  public var ownSync: String { "\(subtree(host))/sync" }
  /// The state of `channel` as `owner` publishes it.
  public func state(of channel: ChannelName, by owner: String) -> String {
    "\(subtree(owner))/ch/\(TopicLevel.escape(channel.description))/state"
  }
  /// The state of a channel this machine owns.
  public func ownState(of channel: ChannelName) -> String { state(of: channel, by: host) }
  /// Where badged 0.1's bridges published every owner's state: refused now.
  public func oldState(of channel: ChannelName) -> String {
    "\(prefix)/ch/\(TopicLevel.escape(channel.description))/state"
  }
  public func command(to channel: ChannelName) -> String {
    "\(prefix)/ch/\(TopicLevel.escape(channel.description))/cmd"
  }
  public func dnd(of host: String) -> String { "\(subtree(host))/dnd" }
  public var ownDND: String { dnd(of: host) }
  public var dndSet: String { "\(prefix)/dnd/set" }

  /// What a topic a message came on is about; `nil` for a topic that is none of ours or whose
  /// names do not parse.
  public enum Incoming: Equatable, Sendable {
    /// A state published under `host`'s subtree.
    case state(ChannelName, host: String)
    /// A state on the layout of badged 0.1's bridges.
    case oldState(ChannelName)
    case command(ChannelName)
    case status(host: String)
    /// An answer to this machine's command, published under `host`'s subtree.
    case reply(from: String)
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
      return levels[2] == "state" ? .oldState(name) : levels[2] == "cmd" ? .command(name) : nil
    case (_, "host"):
      guard levels.count >= 3, let host = TopicLevel.unescape(levels[1]), MeshConfig.isHostName(host) else {
        return nil
      }
      return classify(host: host, levels.dropFirst(2))
    default: return nil
    }
  }

  /// The levels after `<prefix>/host/<host>/`.
  private func classify(host: String, _ levels: ArraySlice<Substring>) -> Incoming? {
    switch (levels.count, levels.first) {
    case (1, "status"): return .status(host: host)
    case (1, "sync"): return host == self.host ? .sync : nil
    case (1, "dnd"): return .dndState
    case (2, "reply"):
      return TopicLevel.unescape(levels.last!) == self.host ? .reply(from: host) : nil
    case (3, "ch"):
      guard levels.last == "state", let text = TopicLevel.unescape(levels[levels.startIndex + 1]),
        let name = ChannelName(text)
      else { return nil }
      return .state(name, host: host)
    default: return nil
    }
  }

  /// The writer a command's response topic names, when it is a reply topic under this prefix
  /// (`<prefix>/host/<owner>/reply/<writer>`, both host names): an owner answers only there,
  /// on its own subtree (`reply(from: host, to: writer)`), so that a command cannot make it
  /// publish anywhere else.
  public func replyWriter(_ topic: String) -> String? {
    guard topic.hasPrefix(prefix + "/host/") else { return nil }
    let levels = topic.dropFirst(prefix.count + 6).split(separator: "/", omittingEmptySubsequences: false)
    guard levels.count == 3, levels[1] == "reply",
      let owner = TopicLevel.unescape(levels[0]), MeshConfig.isHostName(owner),
      let writer = TopicLevel.unescape(levels[2]), MeshConfig.isHostName(writer)
    else { return nil }
    return writer
  }

  /// The retained topics the bridge subscribes to after each connect, with QoS 0: host
  /// statuses, channel states, shared do-not-disturb's state, Home Assistant's status. On each
  /// subscribe the broker sends the retained message of every one, the latest, and it queues
  /// none of them for a bridge that is away: a queue of old states would be sent first on its
  /// return, and once the broker's queue for it is full (mosquitto's `max_queued_messages`)
  /// the retained states that matter would be dropped.
  /// The old layout's states are among them, to be refused with a reason.
  public func retainedSubscriptions(dndShared: Bool, homeAssistant: Bool) -> [String] {
    var topics = ["\(prefix)/host/+/status", "\(prefix)/host/+/ch/+/state", "\(prefix)/ch/+/state"]
    if dndShared { topics.append("\(prefix)/host/+/dnd") }
    if homeAssistant { topics.append(HomeAssistant.statusTopic) }
    return topics
  }

  /// The topics of messages meant for this machine, subscribed to after the retained ones with
  /// QoS 1 (the broker keeps them while this machine is away, for as long as its session
  /// lasts): commands, answers, do-not-disturb's changes, and the sync marker last, one publish
  /// away (see `MeshCore`).
  public func messageSubscriptions(dndShared: Bool) -> [String] {
    var topics = ["\(prefix)/ch/+/cmd", "\(prefix)/host/+/reply/\(TopicLevel.escape(host))"]
    if dndShared { topics.append(dndSet) }
    topics.append(ownSync)
    return topics
  }
}
