import BadgeCore
import BadgeProtocol

/// A request badged-sources makes on its connection to the daemon (PROTOCOL.md, "Sources"):
/// the protocol's own `Request`, which the connection writes with the daemon's encoder, and the
/// request id a write carries (`id=`), as a token, since the connection sends the token itself.
/// The core spells no protocol word: `SOURCES attach`, `SOURCES config …`, `SOURCE <name>
/// release|status …` are `Request` cases as they are; the two made from what the core knows
/// are below.
public struct SourcesDaemonRequest: Equatable, Sendable {
  public let request: Request
  public let id: String?

  public init(_ request: Request, id: String? = nil) {
    self.request = request
    self.id = id
  }

  /// `SOURCE <source> claim <channel> on_clear=<seen|mark-read>`, answered `.claimed`.
  public static func claim(source: String, channel: ChannelName, onClear: OnClear) -> SourcesDaemonRequest {
    SourcesDaemonRequest(.source(source, .claim(channel, markRead: onClear == .markRead)))
  }

  /// `SET <channel> <count> new=<arrived> [unseen=<unseen>] id=<id>`, answered `.answered`.
  public static func report(
    channel: ChannelName, count: Int, arrived: Int, unseen: Int?, id: String
  ) -> SourcesDaemonRequest {
    SourcesDaemonRequest(.write(channel, .report(count: count, arrived: arrived, unseen: unseen)), id: id)
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
  /// The reply to `LIST` sent at each connection: every channel a source claims in the daemon,
  /// with that source's name (claims made by this program's earlier runs too).
  case sourceChannels([ChannelName: String])
}
