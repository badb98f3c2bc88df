/// The responses badged-web writes the same way everywhere: JSON, errors, and the headers
/// every response carries.
extension HTTPResponse {
  /// The policy of the page's HTML: its own files only, nothing framed.
  public static let contentSecurityPolicy =
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    + "frame-ancestors 'none'"

  /// The headers of every response (docs/WEB.md, "Access"): nothing stored by caches or
  /// proxies, no type sniffing, no referrer; HTML also gets `Content-Security-Policy`.
  public static func securityHeaders(html: Bool) -> [(name: String, value: String)] {
    var headers: [(name: String, value: String)] = [
      ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
    ]
    if html { headers.append(("Content-Security-Policy", contentSecurityPolicy)) }
    return headers
  }

  /// A JSON body, with the security headers.
  public static func json(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> HTTPResponse
  {
    .text(status, text, type: "application/json", headers: securityHeaders(html: false) + headers)
  }

  /// `{"error":"<code>","message":"…"}` with `status`.
  public static func error(
    _ status: Int, _ code: String, _ message: String? = nil, headers: [(name: String, value: String)] = []
  ) -> HTTPResponse {
    json(status, WebJSON.error(code, message), headers: headers)
  }

  /// An HTML page, with the security headers and the page's policy.
  public static func html(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> HTTPResponse
  {
    .text(status, text, type: "text/html; charset=utf-8", headers: securityHeaders(html: true) + headers)
  }
}
