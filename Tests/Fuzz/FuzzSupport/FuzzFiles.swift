import Glibc

/// A private folder for the files a fuzz target hands to code that reads paths (the config,
/// the state folder): under `$TMPDIR` (scripts/fuzz points it at a folder of the run, which it
/// removes, so the folders of crashed runs go too), else on /dev/shm when there is one so that
/// no input waits for a disk. Removed when the fuzzer exits normally.
public enum FuzzFiles {
  public static let folder: String = {
    let base = getenv("TMPDIR").map { String(cString: $0) } ?? (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp")
    var template = Array("\(base)/badged-fuzz-XXXXXX".utf8CString)
    guard mkdtemp(&template) != nil else { fatalError("mkdtemp failed: errno \(errno)") }
    let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    atexit { FuzzFiles.removeAll() }
    return path
  }()

  /// Replaces the file at `path` with `bytes` (mode 0600).
  public static func write(_ path: String, _ bytes: UnsafeBufferPointer<UInt8>) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    precondition(fd >= 0, "open \(path) failed: errno \(errno)")
    var done = 0
    while done < bytes.count {
      let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
      precondition(n > 0, "write \(path) failed: errno \(errno)")
      done += n
    }
    close(fd)
  }

  /// Empties the folder (the files of the last input, and copies of damaged ones).
  public static func clear() {
    guard let dir = opendir(folder) else { return }
    defer { closedir(dir) }
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
      }
      if name != "." && name != ".." { unlink(folder + "/" + name) }
    }
  }

  private static func removeAll() {
    clear()
    rmdir(folder)
  }
}
