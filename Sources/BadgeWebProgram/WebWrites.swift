import BadgeClient
import BadgeCore
import BadgeProtocol
import BadgeWeb

/// The page's and the scripts' writes, sent through the feed's connection to badged with their
/// request ids (a retried POST with the same id counts once), each answered when badged's reply
/// comes (`WebReply`): 200 with the channel as the reply left it, or the protocol's refusal as
/// an HTTP one; 503 when badged is away or the connection ends first.
enum WebWrites {
  /// Sends `request` with `id`; `answer` gets the HTTP response once the reply is in (at once,
  /// 503, when badged is away or too many writes await replies).
  static func send(
    _ request: Request, id: String?, through daemon: DaemonClient, answer: @escaping (HTTPResponse) -> Void
  ) {
    var state: ReplyLine?
    let sent = daemon.send(request, id: id) { reply in
      switch reply {
      case .line(.state(let snapshot)): state = .state(snapshot)
      case .line(.ok): answer(state.map(WebReply.response(to:)) ?? WebReply.unavailable)
      case .line(let line) where line.isStatus: answer(WebReply.response(to: line))
      case .line: break
      case .connectionLost: answer(WebReply.unavailable)
      }
    }
    if !sent { answer(WebReply.unavailable) }
  }
}
