import BadgeWeb
import Testing

/// `WebAccess.decide`: every refusal of docs/WEB.md "Access", and what is let through.
@Suite struct WebAccessTests {
  static let own = "http://127.0.0.1:8787"
  static let write = TokenAccess(id: "abcd1234", level: .write)
  static let read = TokenAccess(id: "ef567890", level: .read)

  static var config: WebConfig {
    var config = WebConfig()
    config.allowOrigins = ["https://dash.example.org"]
    return config
  }

  static func request(
    _ method: String, _ path: String, host: String? = "127.0.0.1:8787", origin: String? = nil,
    cookie: String? = nil, bearer: String? = nil
  ) -> HTTPRequest {
    var headers: [(name: String, value: String)] = []
    if let host { headers.append(("host", host)) }
    if let origin { headers.append(("origin", origin)) }
    if let cookie { headers.append(("cookie", "badged_token=\(cookie)")) }
    if let bearer { headers.append(("authorization", "Bearer \(bearer)")) }
    return HTTPRequest(method: method, path: path, headers: headers)
  }

  static func decide(_ request: HTTPRequest, _ access: TokenAccess?) -> WebAccess.Decision {
    WebAccess.decide(request, route: WebRoute.parse(request), config: config, access: access)
  }

  static func status(_ request: HTTPRequest, _ access: TokenAccess?) -> Int? {
    guard case .refuse(let response) = decide(request, access) else { return nil }
    return response.status
  }

  static func body(_ decision: WebAccess.Decision) -> String? {
    guard case .refuse(let response) = decision, case .bytes(let bytes) = response.body else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func credentialsComeFromBearerThenCookie() {
    #expect(WebAccess.credential(of: Self.request("GET", "/", cookie: "c")) == .cookie("c"))
    #expect(WebAccess.credential(of: Self.request("GET", "/", bearer: "b")) == .bearer("b"))
    #expect(WebAccess.credential(of: Self.request("GET", "/", cookie: "c", bearer: "b")) == .bearer("b"))
    #expect(WebAccess.credential(of: Self.request("GET", "/")) == nil)
  }

  @Test func aValidTokenReadsAndWrites() {
    #expect(Self.decide(Self.request("GET", "/events", cookie: "t"), Self.read) == .allow(Self.read))
    #expect(
      Self.decide(Self.request("POST", "/api/channels/mail/incr", origin: Self.own, cookie: "t"), Self.write)
        == .allow(Self.write))
    #expect(Self.decide(Self.request("POST", "/api/channels/mail/incr", bearer: "t"), Self.write) == .allow(Self.write))
    #expect(Self.decide(Self.request("GET", "/link"), nil) == .allow(nil))
    #expect(Self.decide(Self.request("POST", "/link", origin: Self.own), nil) == .allow(nil))
  }

  @Test func noTokenOrAnUnknownOneIs401AndNothingElse() {
    let refused = Self.decide(Self.request("GET", "/api/channels"), nil)
    #expect(Self.status(Self.request("GET", "/api/channels"), nil) == 401)
    #expect(Self.body(refused) == "{\"error\":\"unauthorized\"}")
    #expect(Self.status(Self.request("GET", "/events", cookie: "unknown"), nil) == 401)
    #expect(Self.status(Self.request("POST", "/api/channels/mail/incr", bearer: "x"), nil) == 401)
    let page = Self.decide(Self.request("GET", "/"), nil)
    #expect(Self.body(page)?.contains("badgectl web link") == true)
    guard case .refuse(let response) = page else { return }
    #expect(response.status == 401)
    #expect(response.header("content-security-policy") == HTTPResponse.contentSecurityPolicy)
    #expect(response.header("cache-control") == "no-store")
  }

  @Test func anotherHostIs421() {
    #expect(Self.status(Self.request("GET", "/events", host: "evil.example:8787", cookie: "t"), Self.read) == 421)
    #expect(Self.status(Self.request("GET", "/events", host: nil, cookie: "t"), Self.read) == 421)
    #expect(Self.status(Self.request("GET", "/link", host: "127.0.0.1:9999"), nil) == 421)
    #expect(
      Self.decide(Self.request("GET", "/events", host: "localhost:8787", cookie: "t"), Self.read) == .allow(Self.read))
    #expect(
      Self.decide(Self.request("GET", "/events", host: "[::1]:8787", cookie: "t"), Self.read) == .allow(Self.read))
  }

  @Test func aReadOnlyTokenCannotWrite() {
    let request = Self.request("POST", "/api/channels/mail/incr", origin: Self.own, cookie: "t")
    #expect(Self.status(request, Self.read) == 403)
    #expect(
      Self.body(Self.decide(request, Self.read)) == "{\"error\":\"forbidden\",\"message\":\"this token is read-only\"}")
  }

  @Test func aCookieWriteNeedsTheServersOwnOrAnAllowedOrigin() {
    #expect(Self.status(Self.request("POST", "/api/channels/mail/incr", cookie: "t"), Self.write) == 403)
    #expect(
      Self.status(
        Self.request("POST", "/api/channels/mail/incr", origin: "https://evil.example", cookie: "t"), Self.write)
        == 403)
    #expect(
      Self.status(
        Self.request("POST", "/api/channels/mail/incr", origin: "https://127.0.0.1:8787", cookie: "t"), Self.write)
        == 403)
    #expect(
      Self.decide(
        Self.request("POST", "/api/channels/mail/incr", origin: "https://dash.example.org", cookie: "t"), Self.write)
        == .allow(Self.write))
  }

  @Test func aBearerRequestWithAForeignOriginIsRefused() {
    #expect(
      Self.status(
        Self.request("POST", "/api/channels/mail/incr", origin: "http://evil.example", bearer: "t"), Self.write)
        == 403)
  }

  @Test func anotherSitesPageCannotReadTheStream() {
    #expect(Self.status(Self.request("GET", "/events", origin: "http://evil.example", cookie: "t"), Self.read) == 403)
    #expect(Self.status(Self.request("GET", "/link", origin: "http://evil.example"), nil) == 403)
    #expect(Self.status(Self.request("POST", "/link", origin: "http://evil.example"), nil) == 403)
  }

  @Test func preflightsAndCORSHeadersOnlyForAllowedOrigins() {
    let allowed = Self.request("OPTIONS", "/api/channels/mail/incr", origin: "https://dash.example.org")
    guard case .answer(let response) = Self.decide(allowed, nil) else {
      Issue.record("a preflight is answered by the decision")
      return
    }
    #expect(response.status == 204)
    #expect(response.header("access-control-allow-origin") == "https://dash.example.org")
    #expect(response.header("vary") == "Origin")
    #expect(response.header("access-control-allow-headers") == "Authorization, Last-Event-ID")
    #expect(response.header("access-control-allow-methods") == "GET, POST")
    #expect(Self.status(Self.request("OPTIONS", "/events", origin: Self.own), nil) == 403)
    #expect(Self.status(Self.request("OPTIONS", "/events"), nil) == 403)
    #expect(Self.status(Self.request("OPTIONS", "/events", origin: "http://evil.example"), nil) == 403)
    #expect(WebAccess.corsHeaders(for: allowed, config: Self.config).count == 4)
    #expect(WebAccess.corsHeaders(for: Self.request("GET", "/", origin: Self.own), config: Self.config).isEmpty)
  }

  @Test func theSecurityHeaders() {
    let headers = HTTPResponse.securityHeaders(html: false)
    #expect(headers.map(\.name) == ["Cache-Control", "X-Content-Type-Options", "Referrer-Policy"])
    #expect(headers.map(\.value) == ["no-store", "nosniff", "no-referrer"])
    #expect(HTTPResponse.securityHeaders(html: true).last?.value == HTTPResponse.contentSecurityPolicy)
    #expect(HTTPResponse.error(503, "unavailable", "badged is away").header("content-type") == "application/json")
  }
}
