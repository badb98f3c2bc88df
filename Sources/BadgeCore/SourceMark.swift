/// What a channel counted by a source carries: which source of `badged-sources` owns it
/// (`SOURCE <name> claim <channel>`), and whether that source is out of order.
///
/// A claim lives in the daemon's memory only, never in the journal: the sources program claims
/// its channels again on every connection, so a restart of either side loses nothing. While a
/// channel is claimed only its source writes its count (`SET … new=`); a click (`CLEAR`) marks
/// it seen, and it is never forgotten, even at count 0.
public struct SourceMark: Equatable, Sendable {
  /// The source's name (`[source.<name>]`).
  public var name: String
  /// True while the source is in error or retrying, or the sources program is gone.
  public var stale: Bool
  /// While stale: the wall-clock second the source was last in order (`nil`: not known).
  public var since: Int?

  public init(name: String, stale: Bool = false, since: Int? = nil) {
    self.name = name
    self.stale = stale
    self.since = since
  }

  /// A source name as the protocol takes it: 1 to 64 characters of a channel name's
  /// (`A-Z a-z 0-9 . _ - :`), so it never splits a line.
  public static func isValidName(_ text: String) -> Bool {
    RequestID.isValidToken(text)
  }

  /// The rule, as error messages state it.
  public static let nameRule = "source names are 1-64 characters from A-Z a-z 0-9 . _ : -"
}
