/// The pages of `badgectl web link`'s URL (docs/WEB.md, "Routes"): `GET /link?code=C` answers a
/// tiny page that posts the code by script, so a chat app's link preview, which fetches the URL
/// with a GET, never uses the code up; `POST /link` exchanges it for the token cookie.
public enum WebLink {
  /// The script of the link page: it submits the form at once.
  static let script = "document.getElementById('link').submit();"

  /// The link page's policy: nothing but its own inline script (by its hash) and a form posted
  /// to the server itself.
  public static let contentSecurityPolicy =
    "default-src 'none'; script-src 'sha256-\(WebSecret.base64(WebSecret.sha256(Array(script.utf8))))'; "
    + "form-action 'self'; frame-ancestors 'none'"

  /// How long the cookie lasts: a year, in seconds.
  public static let cookieMaxAge = 31_536_000

  /// `GET /link?code=C`: the page that posts the code, with a button for a browser without
  /// scripts; 403 when the code is missing or could not be one.
  public static func page(for request: HTTPRequest) -> HTTPResponse {
    guard let code = request.argument("code"), WebSecret.isWellFormed(code) else { return refused }
    let body = """
      <!doctype html><html lang="en"><head><meta charset="utf-8"><title>badged: linking</title>\
      <meta name="viewport" content="width=device-width"></head><body>\
      <form id="link" method="post" action="/link"><input type="hidden" name="code" value="\(code)">\
      <p>Linking this browser to badged…</p><noscript><button type="submit">Link this browser</button></noscript>\
      </form><script>\(script)</script></body></html>

      """
    return .text(200, body, type: "text/html; charset=utf-8", headers: headers)
  }

  /// `POST /link`'s answer once the code was looked up: 303 to `/` with the token's cookie
  /// (`Secure` under TLS), or 403 for a code unknown, used or expired.
  public static func redeemed(_ issued: TokenStore.IssuedToken?, secure: Bool) -> HTTPResponse {
    guard let issued else { return refused }
    return HTTPResponse(
      status: 303,
      headers: HTTPResponse.securityHeaders(html: false) + [
        ("Location", "/"), ("Set-Cookie", cookie(issued.token, secure: secure)),
      ])
  }

  /// The `Set-Cookie` value that holds `token`.
  public static func cookie(_ token: String, secure: Bool) -> String {
    "\(WebAccess.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(cookieMaxAge)"
      + (secure ? "; Secure" : "")
  }

  /// The page of a link that cannot be used.
  static var refused: HTTPResponse {
    .text(
      403,
      """
      <!doctype html><html lang="en"><head><meta charset="utf-8"><title>badged: link refused</title>\
      <meta name="viewport" content="width=device-width"></head><body><h1>This link cannot be used</h1>\
      <p>It was used already, has expired (links last 10 minutes) or is not whole. Run \
      <code>badgectl web link</code> again.</p></body></html>

      """, type: "text/html; charset=utf-8", headers: headers)
  }

  static var headers: [(name: String, value: String)] {
    HTTPResponse.securityHeaders(html: false) + [("Content-Security-Policy", contentSecurityPolicy)]
  }
}
