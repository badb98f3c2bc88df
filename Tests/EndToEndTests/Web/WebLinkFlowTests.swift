import Foundation
import Testing

/// A phone linked the way `badgectl web link` says: the link page, the code exchanged for the
/// cookie once, and the cookie's writes checked against the page's origin (CSRF).
@Suite struct WebLinkFlowTests {
  @Test func aLinkCodeBecomesTheCookieOnceAndItsWritesNeedTheOwnOrigin() throws {
    let rig = try WebRig()
    let code = try rig.linkCode()
    let page = try rig.request("GET", "/link?code=\(code)", token: nil)
    #expect(page.status == 200)
    #expect(page.body.contains("value=\"\(code)\""))
    let redeemed = try rig.request("POST", "/link", token: nil, form: "code=\(code)")
    #expect(redeemed.status == 303)
    let setCookie = try #require(redeemed.headers.first { $0.name == "set-cookie" }?.value)
    #expect(setCookie.hasPrefix("badged_token="))
    #expect(setCookie.contains("; HttpOnly; SameSite=Strict"))
    #expect(try rig.request("POST", "/link", token: nil, form: "code=\(code)").status == 403)

    let cookie = "Cookie: " + String(setCookie.prefix { $0 != ";" })
    #expect(try rig.request("GET", "/api/channels", token: nil, headers: [cookie]).status == 200)
    let own = "Origin: http://127.0.0.1:\(rig.port)"
    let other = "Origin: http://evil.example"
    #expect(try rig.request("POST", "/api/channels/mail/incr", token: nil, headers: [cookie]).status == 403)
    #expect(try rig.request("POST", "/api/channels/mail/incr", token: nil, headers: [cookie, other]).status == 403)
    #expect(try rig.request("GET", "/events", token: nil, headers: [cookie, other]).status == 403)
    #expect(try rig.ctl("get", "mail").hasPrefix("mail 0"))
    let write = try rig.request("POST", "/api/channels/mail/incr", token: nil, form: "n=2", headers: [cookie, own])
    #expect(write.status == 200)
    #expect(WebStreamTests.field("count", in: write.body) == "2")
  }

  @Test func aReadOnlyTokenCannotWriteAndAWrongHostIs421() throws {
    let rig = try WebRig()
    let token = try rig.token(readOnly: true)
    #expect(try rig.request("POST", "/api/channels/mail/incr", token: token).status == 403)
    #expect(try rig.request("GET", "/api/channels", token: token, headers: ["Host: attacker.example"]).status == 421)
    #expect(try rig.ctl("get", "mail").hasPrefix("mail 0"))
    let answer = try rig.request("GET", "/api/channels", token: token)
    #expect(answer.headers.first { $0.name == "cache-control" }?.value == "no-store")
    #expect(answer.headers.first { $0.name == "x-content-type-options" }?.value == "nosniff")
  }
}

/// Cross-origin access through the real server: a preflight and the CORS headers for an origin
/// of `allow_origins` only, never `*`.
@Suite struct WebCORSTests {
  @Test func onlyAnAllowedOriginGetsThePreflightAndTheCORSHeaders() throws {
    let rig = try WebRig(extra: "allow_origins = https://dash.example\n")
    let token = try rig.token()
    let preflight = try rig.request(
      "OPTIONS", "/api/channels/mail/incr", token: nil,
      headers: ["Origin: https://dash.example", "Access-Control-Request-Method: POST"])
    #expect(preflight.status == 204)
    #expect(preflight.headers.first { $0.name == "access-control-allow-origin" }?.value == "https://dash.example")
    let refused = try rig.request("OPTIONS", "/api/channels", token: nil, headers: ["Origin: https://other.example"])
    #expect(refused.status == 403)
    let read = try rig.request("GET", "/api/channels", token: token, headers: ["Origin: https://dash.example"])
    #expect(read.status == 200)
    #expect(read.headers.first { $0.name == "access-control-allow-origin" }?.value == "https://dash.example")
    #expect(read.headers.first { $0.name == "vary" }?.value == "Origin")
    let own = try rig.request("GET", "/api/channels", token: token)
    #expect(!own.headers.contains { $0.name == "access-control-allow-origin" })
    let write = try rig.request(
      "POST", "/api/channels/mail/incr", token: token, form: "n=2", headers: ["Origin: https://dash.example"])
    #expect(write.status == 200)
    #expect(write.headers.first { $0.name == "access-control-allow-origin" }?.value == "https://dash.example")
  }
}

/// badged-web over HTTPS (libmicrohttpd with GnuTLS, the certificate and key read at start):
/// the stream and the link's cookie, `Secure` under TLS.
@Suite struct WebTLSTests {
  @Test func overHTTPSTheStreamFlowsAndTheCookieIsSecure() throws {
    let rig = try WebRig(tls: true)
    let token = try rig.token(readOnly: true)
    try rig.ctl("incr", "mail", "2")
    let stream = try EventStreamReader(rig: rig, token: token)
    let snapshot = try stream.nextEvent()
    #expect(snapshot.name == "snapshot")
    #expect(snapshot.id == "1")
    try rig.ctl("incr", "mail")
    #expect(try stream.nextEvent().id == "2")
    let redeemed = try rig.request("POST", "/link", token: nil, form: "code=\(try rig.linkCode())")
    #expect(redeemed.status == 303)
    #expect(redeemed.headers.first { $0.name == "set-cookie" }?.value.hasSuffix("; Secure") == true)
  }
}
