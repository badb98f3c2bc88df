import BadgeSystem
import BadgeWeb

/// The page's files, read from the web root (`[web] root`) at each request: only the files of
/// the routes' table (`WebRoute.files`; no path from the request reaches the file system), each
/// with its content type (`WebRoute.contentType`). They are small and few, and reading them anew lets a reinstalled page
/// show without a restart.
struct StaticFiles {
  /// The folder the files are in.
  let root: String

  /// The response for the file `name` (one of `WebRoute.files`): the file, or 404 when it is not
  /// installed.
  func response(for name: String) -> HTTPResponse {
    guard WebRoute.files.contains(name) else { return WebReply.notFound }
    let bytes: [UInt8]?
    do throws(SystemError) {
      bytes = try StateFiles.read(root + "/" + name)
    } catch {
      bytes = nil
    }
    guard let bytes else { return .error(404, "not-found", "\(name) is not installed in \(root)") }
    let type = WebRoute.contentType(of: name)
    return HTTPResponse(
      status: 200,
      headers: [("Content-Type", type)] + HTTPResponse.securityHeaders(html: type.hasPrefix("text/html")),
      body: .bytes(bytes))
  }
}
