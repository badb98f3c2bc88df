import BadgeCore
import BadgeProtocol

/// A write from the page or a script (`POST /api/channels/<name>/<action>`), turned into the
/// protocol's request line with its request id, so a retried POST counts once.
public struct WebWrite: Sendable, Equatable {
  /// The actions of the API, by their path's last segment.
  public enum Action: String, Sendable, CaseIterable {
    case incr, decr, set, clear, seen
  }

  public var channel: ChannelName
  public var write: ChannelWrite
  /// The protocol's request id (`id=`), when the client gave one.
  public var id: String?

  /// Why a write's arguments were refused: 400 with `{"error":"usage",…}`.
  public struct Refusal: Error, Sendable, Equatable {
    public var message: String
  }

  /// Reads the write of `action` on the channel `name` from `request`'s arguments: `n=` for
  /// incr, decr (1 when missing) and set (required), `upto=` for clear and seen (every item
  /// when missing), `id=` for all.
  public static func parse(
    channel name: String, action: Action, request: HTTPRequest
  ) throws(Refusal) -> WebWrite {
    guard let channel = ChannelName(name) else {
      throw Refusal(message: "'\(name)' is not a channel name (\(ChannelName.namingRule))")
    }
    func number(_ argument: String, in range: ClosedRange<Int>) throws(Refusal) -> Int? {
      guard let text = request.argument(argument) else { return nil }
      guard let value = Int(text), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), range.contains(value) else {
        throw Refusal(message: "\(argument) must be a number from \(range.lowerBound) to \(range.upperBound)")
      }
      return value
    }
    let write: ChannelWrite
    switch action {
    case .incr: write = .incr(try number("n", in: ChannelWrite.amounts) ?? 1)
    case .decr: write = .decr(try number("n", in: ChannelWrite.amounts) ?? 1)
    case .set:
      guard let n = try number("n", in: ChannelWrite.counts) else { throw Refusal(message: "set needs n=<count>") }
      write = .set(n)
    case .clear: write = .clear(upTo: try number("upto", in: 0...Int.max))
    case .seen: write = .seen(upTo: try number("upto", in: 0...Int.max))
    }
    let id = request.argument("id")
    if let id, !RequestID.isValidToken(id) { throw Refusal(message: RequestID.tokenRule) }
    return WebWrite(channel: channel, write: write, id: id)
  }

  public init(channel: ChannelName, write: ChannelWrite, id: String? = nil) {
    self.channel = channel
    self.write = write
    self.id = id
  }

  /// The protocol request.
  public var request: Request { .write(channel, write) }

  /// The request line without its terminator, written by `RequestEncoder` (`INCR mail 3
  /// id=…`, `CLEAR mail upto=140 id=…`).
  public var line: String { RequestEncoder.line(request, id: id) }
}
