import BadgeSystem

/// Standard output, one `write(2)` per call, so that every line reaches a status bar at once
/// (no stdio buffering). When the reader is gone (`EPIPE`) the process exits quietly: a watcher
/// must not outlive its bar.
enum Output {
  static func write(_ text: String) {
    do {
      try FileDescriptor.standardOutput.writeAll(text.utf8)
    } catch {
      Environment.exit(0)
    }
  }

  static func line(_ text: String) { write(text + "\n") }

  static func error(_ text: String) {
    try? FileDescriptor.standardError.writeAll(text.utf8)
  }
}
