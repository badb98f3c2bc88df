import Glibc

/// Folder and file operations the daemon needs, with systemd-style errors.
public enum FileSystem {
  /// Creates `path` and any missing parents with `mode`. An existing folder is kept as it is;
  /// an existing non-folder is an error.
  public static func makeFolder(_ path: String, mode: mode_t = 0o700) throws(SystemError) {
    var st = stat()
    if stat(path, &st) == 0 {
      guard st.st_mode & S_IFMT == S_IFDIR else {
        throw SystemError("use '\(path)' as a folder", Errno(rawValue: ENOTDIR))
      }
      return
    }
    if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
      try makeFolder(String(path[..<slash]), mode: 0o755 & mode | 0o700)
    }
    if mkdir(path, mode) != 0 && Errno.current != .exists {
      throw SystemError("create folder '\(path)'", .current)
    }
    chmod(path, mode)  // mkdir applies the umask
  }

  /// The permission bits of `path` (the file itself, not what a link points to) when they grant
  /// more than `allowed`; `nil` when they do not, or when `path` cannot be examined.
  public static func looserMode(_ path: String, than allowed: mode_t) -> mode_t? {
    var st = stat()
    guard lstat(path, &st) == 0 else { return nil }
    let mode = st.st_mode & 0o7777
    return mode & ~allowed == 0 ? nil : mode
  }

  /// Whether something exists at `path`.
  public static func exists(_ path: String) -> Bool {
    access(path, F_OK) == 0
  }

  /// The folder part of `path` ("." when it has none).
  public static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// Removes the file at `path`, if any.
  public static func remove(_ path: String) {
    if unlink(path) == 0 { StorageTrace.record(.remove(path: path)) }
  }
}
