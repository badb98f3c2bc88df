import BadgeCore
import BadgePOSIX
import BadgeProtocol
import BadgeWeb

/// What badged-web answers each request: the decisions are BadgeWeb's (`WebRoute`, `WebAccess`,
/// `TokenStore`, `WebWrite`, `WebLink`, `WebReply`), the answers come from the feed's state, the static
/// files, a stream, or badged's reply to a write. An allowed origin's CORS headers go on every
/// answer.
extension WebRuntime {
  func handle(_ request: HTTPRequest, _ responder: Responder) {
    let route = WebRoute.parse(request)
    let credential = WebAccess.credential(of: request)
    let access = credential.flatMap { tokens.authenticate($0.token) }
    switch WebAccess.decide(request, route: route, config: config, access: access) {
    case .refuse(let response), .answer(let response):
      responder.answer(response)
    case .allow(let access):
      let cors = WebAccess.corsHeaders(for: request, config: config)
      serve(route, request: request, access: access, cors: cors, responder: responder)
    }
  }

  private func serve(
    _ route: WebRoute, request: HTTPRequest, access: TokenAccess?, cors: [(name: String, value: String)],
    responder: Responder
  ) {
    let finish = { (response: HTTPResponse) in
      var response = response
      response.headers += cors
      responder.answer(response)
    }
    switch route {
    case .file(let name):
      finish(files.response(for: name))
    case .linkPage:
      finish(WebLink.page(for: request))
    case .redeemLink:
      finish(redeem(request))
    case .events:
      guard let access else { return finish(.error(401, "unauthorized")) }
      do throws(WebWrite.Refusal) {
        let events = try EventsRequest.parse(request)
        openStream(
          events, tokenID: access.id, responder: responder, headers: HTTPResponse.securityHeaders(html: false) + cors)
      } catch {
        finish(WebReply.refused(error))
      }
    case .channels:
      finish(WebReply.channels(in: feed.state))
    case .channel(let name):
      finish(WebReply.channel(name, in: feed.state))
    case .write(let name, let action):
      do throws(WebWrite.Refusal) {
        let write = try WebWrite.parse(channel: name, action: action, request: request)
        WebWrites.send(write.request, id: write.id, through: feed.daemon, answer: finish)
      } catch {
        finish(WebReply.refused(error))
      }
    case .methodNotAllowed(let allowed):
      finish(WebReply.methodNotAllowed(allowed: allowed))
    case .notFound, .preflight:
      finish(WebReply.notFound)
    }
  }

  /// `POST /link`: the code of the form exchanged for a token's cookie, or the refused page.
  private func redeem(_ request: HTTPRequest) -> HTTPResponse {
    let now = Int64(Environment.wallClockMicroseconds / 1_000_000)
    do throws(TokenStore.Failure) {
      let issued = try tokens.redeem(code: request.argument("code") ?? "", now: now)
      if let issued { logger.notice("A browser was linked: token \(issued.access.id) (\(issued.name)).") }
      return WebLink.redeemed(issued, secure: request.secure)
    } catch {
      logger.error("Cannot redeem a link code: \(error)")
      return .error(503, "failed", "the tokens file cannot be written")
    }
  }
}
