/// What a `WATCH` reply was, as its status line says (PROTOCOL.md, "WATCH"): a snapshot, or,
/// for `WATCH since=<seq>`, the changes after that sequence number replayed, or a snapshot
/// because they could not be (`reset`). The daemon writes the line from it and clients read
/// it back, so the two words are spelled in one place.
public enum WatchOutcome: Equatable, Sendable {
  /// `OK watching`: the snapshot of a `WATCH` without `since=`.
  case snapshot
  /// `OK watching since=<seq>`: every change after `seq` of a watched channel was replayed.
  case replayed(since: UInt64)
  /// `OK watching reset`: the changes after `since=` are not all kept (or `since=` is ahead of
  /// the daemon), so the reply was the snapshot.
  case reset

  /// The status line's text after `OK `.
  public var statusText: String {
    switch self {
    case .snapshot: "watching"
    case .replayed(let since): "watching since=\(since)"
    case .reset: "watching reset"
    }
  }

  /// Reads the text of a `WATCH` reply's `OK` line; `nil` when it is none of the three. A
  /// client that compares the line by its prefix `OK watching` reads every one as a snapshot's
  /// end, which each also is.
  public init?(statusText text: String) {
    switch text {
    case "watching": self = .snapshot
    case "watching reset": self = .reset
    default:
      guard text.hasPrefix("watching since="),
        let since = UInt64(text.dropFirst("watching since=".count)),
        text.utf8.dropFirst("watching since=".count).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
      else { return nil }
      self = .replayed(since: since)
    }
  }
}
