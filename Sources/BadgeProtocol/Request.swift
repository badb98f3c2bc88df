import BadgeCore

/// One parsed request line of protocol v1.
public enum Request: Equatable, Sendable {
  case hello
  case ping
  case increment(ChannelName, by: Int)
  case decrement(ChannelName, by: Int)
  case set(ChannelName, to: Int)
  case clear(ChannelName)
  case clearAll
  case get(ChannelName)
  case list
  /// Every unread item of the channel is seen: `unseen` goes to 0.
  case seen(ChannelName)
  case seenAll
  /// Start or extend the pulse window without changing the count; `nil`: the channel's `pulse_ms`.
  case pulse(ChannelName, ms: Int?)
  /// Do-not-disturb: query, turn on (for `ms`, or until turned off), off, or toggle.
  case dnd(DNDRequest)
  case mute(ChannelName)
  case unmute(ChannelName)
  /// Settings made over the socket, in the config file's words (`max_label=9 style=dot`);
  /// `key=default` drops a setting so that the config's value applies again.
  case configure(ChannelName, set: SettingsOverride, reset: [SettingKey])
  /// Subscribe to the channels matching any pattern; no pattern means every channel.
  case watch([ChannelPattern])
  case unwatch
  /// Per-day history of the channels matching any pattern (no pattern: every channel with
  /// history) over the period ending today.
  case stats(StatsPeriod, [ChannelPattern])
  /// Re-read the config file, as SIGHUP does.
  case reload
  case quit

  /// The command words, as clients send them (in any case).
  public enum Command: String, CaseIterable, Sendable {
    case hello = "HELLO", ping = "PING", incr = "INCR", decr = "DECR", set = "SET"
    case clear = "CLEAR", get = "GET", list = "LIST", mute = "MUTE", unmute = "UNMUTE"
    case configure = "CONFIGURE", watch = "WATCH", unwatch = "UNWATCH", reload = "RELOAD", quit = "QUIT"
    case stats = "STATS"
    case seen = "SEEN", pulse = "PULSE", dnd = "DND"
  }
}

/// What a `DND` request asks for.
public enum DNDRequest: Equatable, Sendable {
  /// `DND`: the state only.
  case query
  /// `DND on [<duration>]`: on for `ms`, or until turned off (`nil`).
  case on(ms: Int?)
  /// `DND off`.
  case off
  /// `DND toggle`: off when on, else on until turned off.
  case toggle
}

/// What the protocol promises about itself.
public enum ProtocolInfo {
  /// The protocol version `HELLO` reports.
  public static let version = 1
  /// The longest request line, not counting its terminator.
  public static let maxLineLength = 4096
}
