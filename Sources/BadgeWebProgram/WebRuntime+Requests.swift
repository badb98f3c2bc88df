import BadgeCore
import BadgeProtocol
import BadgeWeb

/// What badged-web answers each request: the decisions are BadgeWeb's (`WebRoute`, `WebAccess`,
/// `TokenStore`), the answers come from the feed's state, the static files, a stream, or
/// badged's reply to a write.
extension WebRuntime {
  func handle(_ request: HTTPRequest, _ responder: Responder) {
    let route = WebRoute.parse(request)
    let token = WebAccess.token(of: request)
    let access = token.flatMap { tokens.authenticate($0) }
    let finish = { [config] (response: HTTPResponse) in
      responder.answer(WebAccess.decorate(response, for: request, config: config))
    }
    if let refusal = WebAccess.refusal(request, route: route, access: access, config: config) {
      finish(refusal)
      return
    }
    switch route {
    case .file(let path):
      finish(files.response(for: path))
    case .events(let events):
      let headers = WebAccess.decorate(HTTPResponse(status: 200), for: request, config: config).headers
      openStream(events, token: token ?? "", responder: responder, headers: headers)
    case .channels:
      finish(WebWrites.json(200, feed.state.snapshotJSON()))
    case .channel(let name):
      guard let snapshot = feed.state.channel(named: name) else {
        finish(WebWrites.json(404, WebJSON.error("not-found", "No channel \(name).")))
        return
      }
      finish(WebWrites.json(200, WebJSON.channel(snapshot).text))
    case .write(let channel, let write, let id):
      WebWrites.send(.write(channel, write), id: id, through: feed.daemon, answer: finish)
    case .refused(let response):
      finish(response)
    }
  }
}
