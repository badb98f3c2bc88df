import BadgeCore
import BadgeWeb
import Testing

/// `WebRoute.parse` over the routes table of docs/WEB.md, and `WebWrite`'s arguments and lines.
@Suite struct WebRouteTests {
  static func route(_ method: String, _ path: String) -> WebRoute {
    WebRoute.parse(HTTPRequest(method: method, path: path))
  }

  @Test func theFilesOfThePage() {
    #expect(Self.route("GET", "/") == .file("index.html"))
    #expect(Self.route("GET", "/index.html") == .file("index.html"))
    for name in ["app.js", "motion.js", "style.css", "manifest.webmanifest", "icon.svg"] {
      #expect(Self.route("GET", "/" + name) == .file(name))
    }
    #expect(Self.route("HEAD", "/app.js") == .file("app.js"))
    #expect(Self.route("GET", "/../etc/passwd") == .notFound)
    #expect(Self.route("GET", "/other.js") == .notFound)
    #expect(Self.route("POST", "/") == .methodNotAllowed(allowed: "GET"))
  }

  @Test func theFilesContentTypes() {
    #expect(
      WebRoute.files.map(WebRoute.contentType) == [
        "text/html; charset=utf-8", "text/javascript; charset=utf-8", "text/javascript; charset=utf-8",
        "text/css; charset=utf-8", "application/manifest+json", "image/svg+xml",
      ])
  }

  @Test func linkEventsAndChannels() {
    #expect(Self.route("GET", "/link") == .linkPage)
    #expect(Self.route("POST", "/link") == .redeemLink)
    #expect(Self.route("PUT", "/link") == .methodNotAllowed(allowed: "GET, POST"))
    #expect(Self.route("GET", "/events") == .events)
    #expect(Self.route("POST", "/events") == .methodNotAllowed(allowed: "GET"))
    #expect(Self.route("GET", "/api/channels") == .channels)
    #expect(Self.route("GET", "/api/channels/mail") == .channel("mail"))
    #expect(Self.route("GET", "/api/channels/app:org.telegram.desktop") == .channel("app:org.telegram.desktop"))
    #expect(Self.route("DELETE", "/api/channels/mail") == .methodNotAllowed(allowed: "GET"))
    #expect(Self.route("OPTIONS", "/api/channels/mail/incr") == .preflight)
    #expect(Self.route("GET", "/api") == .notFound)
  }

  @Test func writesArePostsOfFiveActions() {
    for action in WebWrite.Action.allCases {
      #expect(Self.route("POST", "/api/channels/mail/\(action.rawValue)") == .write("mail", action))
    }
    #expect(Self.route("GET", "/api/channels/mail/incr") == .methodNotAllowed(allowed: "POST"))
    #expect(Self.route("POST", "/api/channels/mail/reset") == .notFound)
    #expect(Self.route("POST", "/api/channels//incr") == .notFound)
    #expect(Self.route("POST", "/api/channels/a/b/incr") == .notFound)
  }

  @Test func whatEachRouteNeeds() {
    #expect(WebRoute.file("index.html").access == .read)
    #expect(WebRoute.events.access == .read)
    #expect(WebRoute.channel("mail").access == .read)
    #expect(WebRoute.write("mail", .clear).access == .write)
    #expect(WebRoute.linkPage.access == .none && WebRoute.redeemLink.access == .none)
    #expect(WebRoute.preflight.access == .none && WebRoute.notFound.access == .none)
  }

  static func write(_ action: WebWrite.Action, _ arguments: [(name: String, value: String)], channel: String = "mail")
    throws(WebWrite.Refusal) -> WebWrite
  {
    try WebWrite.parse(
      channel: channel, action: action, request: HTTPRequest(method: "POST", path: "/", arguments: arguments))
  }

  static func refusal(_ action: WebWrite.Action, _ arguments: [(name: String, value: String)], channel: String = "mail")
    -> String?
  {
    do throws(WebWrite.Refusal) {
      _ = try write(action, arguments, channel: channel)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func writesBecomeTheProtocolsLinesWithTheirIds() throws {
    #expect(try Self.write(.incr, [("n", "3"), ("id", "web-1")]).line == "INCR mail 3 id=web-1")
    #expect(try Self.write(.incr, []).line == "INCR mail 1")
    #expect(try Self.write(.decr, [("n", "2")]).line == "DECR mail 2")
    #expect(try Self.write(.set, [("n", "0"), ("id", "a.b")]).line == "SET mail 0 id=a.b")
    #expect(try Self.write(.clear, [("upto", "140"), ("id", "c1")]).line == "CLEAR mail upto=140 id=c1")
    #expect(try Self.write(.clear, []).line == "CLEAR mail")
    #expect(try Self.write(.seen, [("upto", "7")]).line == "SEEN mail upto=7")
    #expect(
      try Self.write(.incr, [], channel: "app:org.telegram.desktop").request
        == .write(ChannelName("app:org.telegram.desktop")!, .incr(1)))
  }

  @Test func badWriteArgumentsAreRefused() {
    #expect(Self.refusal(.incr, [("n", "0")]) == "n must be a number from 1 to \(Limits.maxCount)")
    #expect(Self.refusal(.incr, [("n", "-1")]) == "n must be a number from 1 to \(Limits.maxCount)")
    #expect(Self.refusal(.incr, [("n", "+1")]) == "n must be a number from 1 to \(Limits.maxCount)")
    #expect(Self.refusal(.set, []) == "set needs n=<count>")
    #expect(Self.refusal(.clear, [("upto", "x")]) == "upto must be a number from 0 to \(Int.max)")
    #expect(Self.refusal(.incr, [("id", "a b")]) == RequestID.tokenRule)
    #expect(Self.refusal(.incr, [], channel: "bad name")?.hasPrefix("'bad name' is not a channel name") == true)
  }
}

/// The link pages: a page that posts the code, the cookie, and the refusals.
@Suite struct WebLinkTests {
  static func body(_ response: HTTPResponse) -> String {
    guard case .bytes(let bytes) = response.body else { return "" }
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func theLinkPagePostsTheCodeByItsHashedScript() {
    let page = WebLink.page(for: HTTPRequest(method: "GET", path: "/link", arguments: [("code", "AbC-_9")]))
    #expect(page.status == 200)
    #expect(Self.body(page).contains("<input type=\"hidden\" name=\"code\" value=\"AbC-_9\">"))
    #expect(Self.body(page).contains("<form id=\"link\" method=\"post\" action=\"/link\">"))
    #expect(Self.body(page).contains("<script>document.getElementById('link').submit();</script>"))
    let hash = WebSecret.base64(WebSecret.sha256(Array("document.getElementById('link').submit();".utf8)))
    #expect(page.header("content-security-policy")?.contains("script-src 'sha256-\(hash)'") == true)
    #expect(page.header("cache-control") == "no-store")
    #expect(hash.utf8.count == 44 && hash.hasSuffix("="))
  }

  @Test func aMissingOrMalformedCodeIsRefused() {
    #expect(WebLink.page(for: HTTPRequest(method: "GET", path: "/link")).status == 403)
    let injected = WebLink.page(for: HTTPRequest(method: "GET", path: "/link", arguments: [("code", "\"><x")]))
    #expect(injected.status == 403 && !Self.body(injected).contains("<x"))
  }

  @Test func aRedeemedCodeSetsTheCookieAndGoesHome() {
    let issued = TokenStore.IssuedToken(token: "tok", access: TokenAccess(id: "abcd1234", level: .read), name: "x")
    let plain = WebLink.redeemed(issued, secure: false)
    #expect(plain.status == 303 && plain.header("location") == "/")
    #expect(plain.header("set-cookie") == "badged_token=tok; Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000")
    #expect(
      WebLink.redeemed(issued, secure: true).header("set-cookie")?.hasSuffix("; Max-Age=31536000; Secure") == true)
    let refused = WebLink.redeemed(nil, secure: false)
    #expect(refused.status == 403 && refused.header("set-cookie") == nil)
    #expect(Self.body(refused).contains("badgectl web link"))
  }
}
