import BadgeClient
import BadgeCore
import BadgeProtocol
import BadgeWeb

/// The page's and the scripts' writes, sent through the feed's connection to badged with their
/// request ids (a retried POST with the same id counts once), each answered when badged's reply
/// comes: 200 with the channel as the reply left it, or the protocol's refusal as an HTTP one.
enum WebWrites {
  /// Sends `request` with `id`; `answer` gets the HTTP response once the reply is in (at once,
  /// 503, when badged is away or too many writes await replies).
  static func send(
    _ request: Request, id: String?, through daemon: DaemonClient, answer: @escaping (HTTPResponse) -> Void
  ) {
    var state: ChannelSnapshot?
    let sent = daemon.send(request, id: id) { reply in
      switch reply {
      case .line(.state(let snapshot)):
        state = snapshot
      case .line(.ok):
        let body = state.map { WebJSON.channel($0).text } ?? "{}"
        answer(.json(200, body))
      case .line(.error(let code, let message)):
        answer(.error(status(ofError: code), code, message))
      case .line:
        break
      case .connectionLost:
        answer(unavailable)
      }
    }
    if !sent { answer(unavailable) }
  }

  /// The HTTP status of a protocol error code: a request the client got wrong is 400; one that
  /// conflicts with the channel's state or owner is 409; the daemon failing is 503.
  static func status(ofError code: String) -> Int {
    switch code {
    case "id-reused", "full", "mirrored", "sourced", "claimed", "local-channel": return 409
    case "failed", "busy", "timeout": return 503
    default: return 400
    }
  }

  static let unavailable = HTTPResponse.error(503, "unavailable", "badged is not connected")
}
