import Glibc

/// A folder of the test's own under `$TMPDIR` (or /tmp), removed with what is in it when the
/// test is done, so no test reads another's leftovers.
final class TemporaryFolder {
  let path: String

  init() throws {
    let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array("\(base)/badged-web-test.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw FolderError(errno: errno) }
    path = String(cString: made)
  }

  deinit { remove(path) }

  /// Removes `path`, and what is in it when it is a folder.
  private func remove(_ path: String) {
    if let folder = opendir(path) {
      while let entry = readdir(folder) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { remove(path + "/" + name) }
      }
      closedir(folder)
      rmdir(path)
    } else {
      unlink(path)
    }
  }

  struct FolderError: Error {
    let errno: CInt
  }
}
