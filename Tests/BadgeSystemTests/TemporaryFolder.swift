import Foundation
import Glibc

/// A folder of its own for one test, removed with everything in it when the body returns.
struct TemporaryFolder {
  let path: String

  /// Runs `body` with a new folder under /tmp (short, so socket paths fit in `sockaddr_un`).
  @discardableResult
  static func with<R>(_ body: (TemporaryFolder) throws -> R) throws -> R {
    var template = Array("/tmp/badged-test.XXXXXX".utf8CString)
    guard let raw = mkdtemp(&template) else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    let folder = TemporaryFolder(path: String(cString: raw))
    defer { try? FileManager.default.removeItem(atPath: folder.path) }
    return try body(folder)
  }

  /// The path of `name` in the folder.
  func file(_ name: String) -> String { path + "/" + name }

  /// Writes `text` to `name` in the folder and returns its path.
  @discardableResult
  func write(_ name: String, _ text: String) throws -> String {
    let path = file(name)
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    return path
  }
}
