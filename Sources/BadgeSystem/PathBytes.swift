/// Paths as bytes: a Maildir's folder or file name need not be UTF-8, and a `String` would
/// replace what is not, naming another file. The calls that take a path take its bytes.
enum PathBytes {
  /// Runs `body` with `path` as a NUL-terminated C string; `nil` without running it when the
  /// path holds a NUL byte, which no file's name can (the callers report `EINVAL`).
  static func withCString<R>(_ path: some Collection<UInt8>, _ body: (UnsafePointer<CChar>) -> R) -> R? {
    guard !path.contains(0) else { return nil }
    var bytes = Array(path)
    bytes.append(0)
    return bytes.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
    }
  }
}
