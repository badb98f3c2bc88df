import BadgeSystem
import BadgeWeb

/// The page's files, read from the web root (`[web] root`) at each request: only the files of
/// the routes' table (`WebRoute.files`; no path from the request reaches the file system), each
/// with its content type. They are small and few, and reading them anew lets a reinstalled page
/// show without a restart.
struct StaticFiles {
  /// The folder the files are in.
  let root: String

  /// The content type of each file of `WebRoute.files`, by its name's extension.
  static func contentType(of name: String) -> String {
    switch name.split(separator: ".").last {
    case "html": return "text/html; charset=utf-8"
    case "js": return "text/javascript; charset=utf-8"
    case "css": return "text/css; charset=utf-8"
    case "webmanifest": return "application/manifest+json"
    case "svg": return "image/svg+xml"
    default: return "application/octet-stream"
    }
  }

  /// The response for the file `name` (one of `WebRoute.files`): the file, or 404 when it is not
  /// installed.
  func response(for name: String) -> HTTPResponse {
    guard WebRoute.files.contains(name) else { return .error(404, "not-found") }
    let bytes: [UInt8]?
    do throws(SystemError) {
      bytes = try StateFiles.read(root + "/" + name)
    } catch {
      bytes = nil
    }
    guard let bytes else { return .error(404, "not-found", "\(name) is not installed in \(root)") }
    let type = StaticFiles.contentType(of: name)
    return HTTPResponse(
      status: 200,
      headers: [("Content-Type", type)] + HTTPResponse.securityHeaders(html: type.hasPrefix("text/html")),
      body: .bytes(bytes))
  }
}
