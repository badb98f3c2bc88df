/// Who may ask what (docs/WEB.md, "Access"): the one place that decides, from the request,
/// the config and what its token may do, whether a request is answered or refused.
///
/// In order: a `Host` the server does not answer to is 421 (DNS rebinding); an `Origin` that is
/// neither the server's own nor allowed is 403 on every route (another site's page using the
/// user's cookie); a preflight is 204 for an allowed origin; a route that needs a token without
/// a valid one is 401 and nothing else; a write needs a write token, and with the cookie an
/// `Origin` that is the server's own or allowed (CSRF).
public enum WebAccess {
  /// What a route needs.
  public enum Need: Sendable, Equatable {
    case none, read, write
  }

  /// Where a request's token came from.
  public enum Credential: Sendable, Equatable {
    /// The `badged_token` cookie: a browser sends it by itself, so writes check `Origin`.
    case cookie(String)
    /// `Authorization: Bearer <token>`: a script's.
    case bearer(String)

    public var token: String {
      switch self {
      case .cookie(let token), .bearer(let token): return token
      }
    }
  }

  /// The outcome.
  public enum Decision: Sendable, Equatable {
    /// Answer it; `access` is the token's (`nil` on a route that needs none).
    case allow(TokenAccess?)
    /// Answer with this refusal (401, 403, 421).
    case refuse(HTTPResponse)
    /// Answer with this, which is no refusal: a CORS preflight's 204.
    case answer(HTTPResponse)
  }

  /// The cookie that holds the token.
  public static let cookieName = "badged_token"

  /// The token of `request`: `Authorization: Bearer` first, then the cookie.
  public static func credential(of request: HTTPRequest) -> Credential? {
    if let authorization = request.header("authorization") {
      let prefix = "Bearer "
      if authorization.count > prefix.count, authorization.lowercased().hasPrefix(prefix.lowercased()) {
        return .bearer(String(authorization.dropFirst(prefix.count)).trimmingSpaces)
      }
    }
    if let cookie = request.cookie(cookieName), !cookie.isEmpty { return .cookie(cookie) }
    return nil
  }

  /// The decision for `request` on `route`, `access` being what its credential's token may do
  /// (`nil`: none, or a token the store does not know).
  public static func decide(
    _ request: HTTPRequest, route: WebRoute, config: WebConfig, access: TokenAccess?
  ) -> Decision {
    guard let host = request.header("host")?.lowercased(), config.hosts.contains(host) else {
      return .refuse(.error(421, "misdirected", "this server does not answer to that host name"))
    }
    let origin = request.header("origin")
    if let origin, !isOwnOrigin(origin, request: request, host: host, config: config),
      !isAllowed(origin, config: config)
    {
      return .refuse(.error(403, "forbidden", "requests from \(origin) are not allowed"))
    }
    if route == .preflight {
      guard let origin, isAllowed(origin, config: config) else {
        return .refuse(.error(403, "forbidden", "no cross-origin access for this origin"))
      }
      return .answer(HTTPResponse(status: 204, headers: HTTPResponse.securityHeaders(html: false) + cors(origin)))
    }
    let need = route.access
    if need == .none { return .allow(nil) }
    guard let access, credential(of: request) != nil else {
      if route == .file("index.html") {
        return .refuse(.html(401, unauthorizedPage))
      }
      return .refuse(.error(401, "unauthorized"))
    }
    if need == .write {
      guard access.canWrite else {
        return .refuse(.error(403, "forbidden", "this token is read-only"))
      }
      if case .cookie = credential(of: request), origin == nil {
        return .refuse(.error(403, "forbidden", "a write with the cookie needs an Origin header"))
      }
    }
    return .allow(access)
  }

  /// The CORS headers for `request`: for an origin in `allow_origins` only, never `*`.
  public static func corsHeaders(for request: HTTPRequest, config: WebConfig) -> [(name: String, value: String)] {
    guard let origin = request.header("origin"), isAllowed(origin, config: config) else { return [] }
    return cors(origin)
  }

  static func cors(_ origin: String) -> [(name: String, value: String)] {
    [
      ("Access-Control-Allow-Origin", origin), ("Vary", "Origin"),
      ("Access-Control-Allow-Headers", "Authorization, Last-Event-ID"),
      ("Access-Control-Allow-Methods", "GET, POST"),
    ]
  }

  /// Whether `origin` is the server's own: `http(s)://<Host>` as this request came, or the
  /// origin of `public_url` (behind a reverse proxy).
  static func isOwnOrigin(_ origin: String, request: HTTPRequest, host: String, config: WebConfig) -> Bool {
    let origin = origin.lowercased()
    if origin == (request.secure ? "https://" : "http://") + host { return true }
    guard let url = config.publicURL, let authority = WebConfig.authority(ofURL: url),
      let scheme = url.split(separator: ":").first
    else { return false }
    return origin == scheme.lowercased() + "://" + authority.lowercased()
  }

  /// Whether `origin` is in `allow_origins`.
  static func isAllowed(_ origin: String, config: WebConfig) -> Bool {
    config.allowOrigins.contains(origin.lowercased())
  }

  /// What `/` says without a token.
  public static let unauthorizedPage = """
    <!doctype html><html lang="en"><head><meta charset="utf-8"><title>badged</title>\
    <meta name="viewport" content="width=device-width"></head><body><h1>badged</h1>\
    <p>This browser has no token yet. On the machine that runs badged, run \
    <code>badgectl web link</code> and open the link it prints here.</p></body></html>

    """
}

extension String {
  /// Without spaces at either end.
  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
