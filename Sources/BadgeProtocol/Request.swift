import BadgeCore

/// One request of protocol v1: what `RequestParser` reads a line as, and what `RequestEncoder`
/// writes as one. Its row in the command table (CommandTable.swift) is `command`.
public enum Request: Equatable, Sendable {
  case hello
  case ping
  /// A write to one channel: `INCR`, `DECR`, `SET`, `CLEAR <channel>`, `SEEN <channel>`,
  /// `MUTE`, `UNMUTE` and `PULSE`.
  case write(ChannelName, ChannelWrite)
  /// `CLEAR *`: every channel's items are read.
  case clearAll
  case get(ChannelName)
  case list
  /// `SEEN *`: every channel's items are seen.
  case seenAll
  /// Do-not-disturb: query, turn on (for `ms`, or until turned off), off, or toggle.
  case dnd(DNDRequest)
  /// Settings made over the socket, in the config file's words (`max_label=9 style=dot`);
  /// `key=default` drops a setting so that the config's value applies again.
  case configure(ChannelName, set: SettingsOverride, reset: [SettingKey])
  /// Subscribe to the channels matching any pattern; no pattern means every channel. With
  /// `since` (`WATCH since=<seq>`), the reply replays the changes after that sequence number
  /// when the daemon still keeps them all, instead of the snapshot.
  case watch([ChannelPattern], since: UInt64? = nil)
  case unwatch
  /// Per-day history of the channels matching any pattern (no pattern: every channel with
  /// history) over the period ending today.
  case stats(StatsPeriod, [ChannelPattern])
  /// Re-read the config file, as SIGHUP does.
  case reload
  case quit
  /// The bridge to other machines (`badged-mqtt`): `BRIDGE host=<host>` makes the connection
  /// the bridge, `BRIDGE status …` reports its state, `BRIDGE` alone asks for it.
  case bridge(BridgeRequest)
  /// The owner's state of a mirrored channel (bridge only).
  case mirror(ChannelName, MirrorUpdate)
  /// `MIRROR <channel> forget`: the owner stopped sharing it (bridge only).
  case forgetMirror(ChannelName)
  /// `STALE <host> <0|1> [since=<unix s>]`: the channels of `host` are out of reach, or back
  /// (bridge only).
  case stale(host: String, stale: Bool, since: Int?)
  /// `FORWARDS`: the writes waiting for their owners, then each new one as it is taken
  /// (bridge only).
  case forwards
  /// `DELIVERED <id>`: the owner applied the write, or refused it for good (bridge only).
  case delivered(String)
  /// `DND on|off … from=<host> at=<unix ms>`: another machine's do-not-disturb (bridge only).
  case remoteDND(RemoteDND)
  /// The sources program (`badged-sources`): `SOURCES` lists its sources for any client,
  /// `SOURCES attach` makes the connection the sources connection, `SOURCES config …` reports
  /// its config.
  case sources(SourcesRequest)
  /// `SOURCE <name> claim|release|status|stopped …`: one source's claims and state (sources
  /// connection only).
  case source(String, SourceRequest)
}

/// What a `SOURCES` request asks.
public enum SourcesRequest: Equatable, Sendable {
  /// `SOURCES`: the sources program's state and each source's last report, for any client.
  case query
  /// `SOURCES attach`: this connection is the sources program's.
  case attach
  /// `SOURCES config ok` (`nil`) or `SOURCES config error=<text>`: whether the program's last
  /// reading of its config failed, and why.
  case config(error: String?)
}

/// What a `SOURCE <name> …` request does.
public enum SourceRequest: Equatable, Sendable {
  /// `SOURCE <name> claim <channel> on_clear=<seen|mark-read>`: the source counts the channel;
  /// with `mark-read` a clear up to a total is handed to it (`CLEARED`).
  case claim(ChannelName, markRead: Bool)
  /// `SOURCE <name> release <channel>`: an ordinary channel again.
  case release(ChannelName)
  /// `SOURCE <name> status kind=… state=… …`: the source's state.
  case status(SourceStatus)
  /// `SOURCE <name> stopped`: the program no longer runs the source (a reload removed it), so
  /// its last report leaves the listing.
  case stopped
}

/// A request line: the request, and the id it came with (`id=<token>`), if any.
public struct RequestLine: Equatable, Sendable {
  public var request: Request
  public var id: RequestID?

  public init(_ request: Request, id: RequestID? = nil) {
    self.request = request
    self.id = id
  }

  /// The text of the `OK` that answers a retried request (`OK repeated`).
  public static let repeatedText = "repeated"
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

/// What a `BRIDGE` request asks.
public enum BridgeRequest: Equatable, Sendable {
  /// `BRIDGE`: the bridge's state, for any client.
  case query
  /// `BRIDGE host=<host>`: this connection is the bridge of the machine `host`.
  case attach(host: String)
  /// `BRIDGE status connected=<0|1> broker=<url> pending=<n> error=<text>`: the bridge's state.
  case status(BridgeStatus)
}

/// The bridge's state as it reports it (`BRIDGE status`), shown by `BRIDGE` and `badgectl mqtt`.
public struct BridgeStatus: Equatable, Sendable {
  /// Whether it is connected to its broker.
  public var connected: Bool
  /// The broker's address, as configured.
  public var broker: String
  /// The writes it holds that the owners have not answered yet.
  public var pending: Int
  /// The last error, for people (may hold spaces); empty when none.
  public var error: String

  public init(connected: Bool, broker: String = "", pending: Int = 0, error: String = "") {
    self.connected = connected
    self.broker = broker
    self.pending = pending
    self.error = error
  }
}

/// Do-not-disturb as another machine set it (`DND on|off [<duration>] from=<host> at=<unix ms>`).
public struct RemoteDND: Equatable, Sendable {
  public var on: Bool
  /// For a timed one, the milliseconds left of it; `nil`: until turned off.
  public var ms: Int?
  /// The machine where it changed.
  public var from: String
  /// When it changed there, in wall-clock milliseconds: the newest change wins.
  public var at: UInt64

  public init(on: Bool, ms: Int? = nil, from: String, at: UInt64) {
    self.on = on
    self.ms = ms
    self.from = from
    self.at = at
  }
}

/// What the protocol promises about itself.
public enum ProtocolInfo {
  /// The protocol version `HELLO` reports.
  public static let version = 1
  /// The longest request line, not counting its terminator.
  public static let maxLineLength = 4096
}
