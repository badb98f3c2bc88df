import BadgeCore

/// The requests badged-sources makes on its connection to the daemon (PROTOCOL.md, "Sources"),
/// as values of their own until the protocol's `Request` gains them; one function maps them
/// once both are in.
public enum SourcesDaemonRequest: Equatable, Sendable {
  /// `SOURCES attach`: this connection speaks for the sources.
  case attach
  /// `SOURCE <source> claim <channel> on_clear=<seen|mark-read>`, answered `.claimed`.
  case claim(source: String, channel: ChannelName, onClear: OnClear)
  /// `SOURCE <source> release <channel>`: an ordinary channel again.
  case release(source: String, channel: ChannelName)
  /// `SOURCE <source> status …`.
  case status(SourceStatus)
  /// `SOURCES config error=<file:line: reason>` when a reload was refused (every source runs
  /// on as it was), `SOURCES config ok` (`nil`) when a later one was accepted.
  case config(error: String?)
  /// `SET <channel> <count> new=<arrived> [unseen=<unseen>] id=<id>`, answered `.answered`.
  case report(channel: ChannelName, count: Int, arrived: Int, unseen: Int?, id: String)
}

/// One source's status line (`SOURCE <name> status kind=… state=… channels=… count=…
/// changed=… [retry_at=…] [error=…]`).
public struct SourceStatus: Equatable, Sendable {
  public var source: String
  public var kind: SourceKind
  /// `SourceHealth.State.word`.
  public var state: String
  public var channels: Int
  public var count: Int
  /// Wall milliseconds of the last change of the count; `nil` before the first.
  public var changed: Int64?
  public var retryAt: Int64?
  public var error: String?

  public init(
    source: String, kind: SourceKind, state: String, channels: Int, count: Int, changed: Int64?,
    retryAt: Int64? = nil, error: String? = nil
  ) {
    self.source = source
    self.kind = kind
    self.state = state
    self.channels = channels
    self.count = count
    self.changed = changed
    self.retryAt = retryAt
    self.error = error
  }
}

/// What the daemon says on the sources connection that the core acts on.
public enum SourcesDaemonAnswer: Equatable, Sendable {
  /// The claim of `channel` went through; the channel's count and total in the daemon.
  case claimed(ChannelName, count: Int, total: Int)
  /// The write with request id `id` was applied (or was a repeat, `OK repeated`); the
  /// channel's total after it.
  case answered(id: String, total: Int)
  /// A request was refused: the write with `id`, or another request when `nil`.
  case refused(id: String?, reason: String)
  /// `CLEARED <channel> upto=<total>`: a click acknowledged what the badge showed.
  case cleared(ChannelName, upto: Int)
  /// `RELOADED`: the daemon reloaded its config.
  case reloaded
}
