import BadgeCore

/// What a request asks for (docs/WEB.md, "Routes"), read from its method and path alone: the
/// checks of who may ask are `WebAccess`'s, the arguments' `WebWrite`'s.
public enum WebRoute: Sendable, Equatable {
  /// `GET` of one of the page's files; the name is the file's in the web root.
  case file(String)
  /// `GET /link?code=C`: the page that posts the code.
  case linkPage
  /// `POST /link`: redeems a code for a token.
  case redeemLink
  /// `GET /events`: the SSE stream.
  case events
  /// `GET /api/channels`.
  case channels
  /// `GET /api/channels/<name>`.
  case channel(String)
  /// `POST /api/channels/<name>/<action>`.
  case write(String, WebWrite.Action)
  /// `OPTIONS` of any path: a CORS preflight.
  case preflight
  /// A path the server has, with a method it does not take: 405.
  case methodNotAllowed(allowed: String)
  /// Anything else: 404.
  case notFound

  /// The page's files, served from the web root.
  public static let files: [String] = [
    "index.html", "app.js", "motion.js", "style.css", "manifest.webmanifest", "icon.svg",
  ]

  /// The `Content-Type` of one of the page's `files`, by its extension.
  public static func contentType(of file: String) -> String {
    if file.hasSuffix(".html") { return "text/html; charset=utf-8" }
    if file.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
    if file.hasSuffix(".css") { return "text/css; charset=utf-8" }
    if file.hasSuffix(".webmanifest") { return "application/manifest+json" }
    if file.hasSuffix(".svg") { return "image/svg+xml" }
    return "application/octet-stream"
  }

  /// The prefix of the channels' paths.
  static let channelsPath = "/api/channels"

  /// The route of `request`. The path is percent-decoded already (`HTTPRequest.path`).
  public static func parse(_ request: HTTPRequest) -> WebRoute {
    let method = request.method
    let path = request.path
    if method == "OPTIONS" { return .preflight }
    let isRead = method == "GET" || method == "HEAD"
    if path == "/" || path == "/index.html" { return isRead ? .file("index.html") : .methodNotAllowed(allowed: "GET") }
    if path.hasPrefix("/"), files.contains(String(path.dropFirst())) {
      return isRead ? .file(String(path.dropFirst())) : .methodNotAllowed(allowed: "GET")
    }
    switch path {
    case "/link":
      if isRead { return .linkPage }
      return method == "POST" ? .redeemLink : .methodNotAllowed(allowed: "GET, POST")
    case "/events": return isRead ? .events : .methodNotAllowed(allowed: "GET")
    case channelsPath, channelsPath + "/": return isRead ? .channels : .methodNotAllowed(allowed: "GET")
    default: break
    }
    guard path.hasPrefix(channelsPath + "/") else { return .notFound }
    let rest = path.dropFirst(channelsPath.count + 1)
    // A channel name has no `/`, so the last `/` splits off an action.
    if let slash = rest.lastIndex(of: "/") {
      let name = String(rest[..<slash])
      guard let action = WebWrite.Action(rawValue: String(rest[rest.index(after: slash)...])), !name.isEmpty,
        !name.contains("/")
      else { return .notFound }
      return method == "POST" ? .write(name, action) : .methodNotAllowed(allowed: "POST")
    }
    return isRead ? .channel(String(rest)) : .methodNotAllowed(allowed: "GET")
  }

  /// Whether the route needs a token, and one that may write.
  public var access: WebAccess.Need {
    switch self {
    case .linkPage, .redeemLink, .preflight, .notFound, .methodNotAllowed: return .none
    case .write: return .write
    case .file, .events, .channels, .channel: return .read
    }
  }
}
