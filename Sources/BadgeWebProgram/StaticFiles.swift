import BadgeSystem
import BadgeWeb

/// The page's files, read from the web root (`[web] root`) at each request: only the files of
/// the table (no path from the request reaches the file system), each with its content type.
/// They are small and few, and reading them anew lets a reinstalled page show without a
/// restart.
struct StaticFiles {
  /// The folder the files are in.
  let root: String

  /// The files served, by request path: the file's name in `root` and its content type.
  static let table: [String: (file: String, type: String)] = [
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/motion.js": ("motion.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
    "/manifest.webmanifest": ("manifest.webmanifest", "application/manifest+json"),
    "/icon.svg": ("icon.svg", "image/svg+xml"),
  ]

  /// The response for `path`: the file, or 404 when it is not in the table or not installed.
  func response(for path: String) -> HTTPResponse {
    guard let entry = StaticFiles.table[path] else { return StaticFiles.notFound }
    let bytes: [UInt8]?
    do throws(SystemError) {
      bytes = try StateFiles.read(root + "/" + entry.file)
    } catch {
      bytes = nil
    }
    guard let bytes else { return StaticFiles.notFound }
    return HTTPResponse(status: 200, headers: [("Content-Type", entry.type)], body: .bytes(bytes))
  }

  static let notFound = HTTPResponse.text(
    404, WebJSON.error("not-found", "No such file."), type: "application/json")
}
