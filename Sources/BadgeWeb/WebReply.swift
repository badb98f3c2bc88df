import BadgeCore
import BadgeProtocol

/// The API's answers built from badged's replies (docs/WEB.md, "Routes"): a write's reply
/// line, a channel read from the state, a refusal of the daemon's as JSON with its status.
public enum WebReply {
  /// The status of the daemon's error `code`: 400 for what the request said wrong, 409 for a
  /// request the state refuses (an id reused, a channel full, counted by a source, …), 503
  /// when badged cannot take it now.
  public static func status(ofError code: String) -> Int {
    switch ProtocolError.Code(rawValue: code) {
    case .unknownCommand, .badArguments, .badName, .badNumber, .badSetting, .lineTooLong, .badUTF8, .tooManyPatterns:
      return 400
    case .outOfRange, .full, .idReused, .localChannel, .mirrored, .claimed, .sourced, .notBridge, .bridgeTaken,
      .notSources, .sourcesTaken, .denied:
      return 409
    case .busy, .timeout, .failed, nil: return 503
    }
  }

  /// A write's answer from the daemon's reply to it: 200 with the channel's JSON, or the error
  /// with its status; 503 for a reply that is neither.
  public static func response(to reply: ReplyLine) -> HTTPResponse {
    switch reply {
    case .state(let snapshot), .event(let snapshot): return .json(200, WebJSON.channel(snapshot).text)
    case .error(let code, let message): return .error(status(ofError: code), code, message)
    default: return unavailable
    }
  }

  /// `GET /api/channels/<name>`: the channel's JSON, or 404 when badged never sent it (it has
  /// no count nor setting).
  public static func channel(_ name: String, in state: WebState) -> HTTPResponse {
    guard let snapshot = state.channel(named: name) else {
      return .error(404, "unknown-channel", "no channel '\(name)' has a count or a setting")
    }
    return .json(200, WebJSON.channel(snapshot).text)
  }

  /// `GET /api/channels`.
  public static func channels(in state: WebState) -> HTTPResponse { .json(200, state.snapshotJSON()) }

  /// 503: badged is away.
  public static let unavailable = HTTPResponse.error(503, "unavailable", "badged is not answering; try again")

  /// 404 for a path the server does not have.
  public static let notFound = HTTPResponse.error(404, "not-found", "no such path")

  /// 413: a body over `maxBodyBytes`.
  public static let tooLarge = HTTPResponse.error(413, "too-large", "a request body is at most 8 KiB")

  /// The largest body a request may carry.
  public static let maxBodyBytes = 8192

  /// 405 with the methods the path takes.
  public static func methodNotAllowed(allowed: String) -> HTTPResponse {
    .error(405, "method-not-allowed", "this path takes \(allowed)", headers: [("Allow", allowed)])
  }

  /// 400 for a write's arguments.
  public static func refused(_ refusal: WebWrite.Refusal) -> HTTPResponse {
    .error(400, ProtocolError.Code.badArguments.rawValue, refusal.message)
  }
}

extension EventsRequest {
  /// What `GET /events` asks: `Last-Event-ID` (or the `lastEventId` argument), a seq; and the
  /// `channel` arguments, names or globs. A value that is neither is refused (400).
  public static func parse(_ request: HTTPRequest) throws(WebWrite.Refusal) -> EventsRequest {
    var events = EventsRequest()
    if let text = request.header("last-event-id") ?? request.argument("lastEventId"), !text.isEmpty {
      guard let id = UInt64(text), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
        throw WebWrite.Refusal(message: "Last-Event-ID must be a sequence number")
      }
      events.lastEventID = id
    }
    for argument in request.arguments where argument.name == "channel" {
      guard ChannelPattern(argument.value) != nil else {
        throw WebWrite.Refusal(message: "'\(argument.value)' is not a channel name or glob")
      }
      events.patterns.append(argument.value)
    }
    return events
  }

  /// The patterns as `EventRing.read` and `WebState` take them.
  public var channelPatterns: [ChannelPattern] { patterns.compactMap { ChannelPattern($0) } }
}
