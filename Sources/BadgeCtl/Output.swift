import BadgePOSIX

/// Standard output, one `write(2)` per call, so that every line reaches a status bar at once
/// (no stdio buffering). When the reader is gone (`EPIPE`) the process exits quietly: a watcher
/// must not outlive its bar.
package enum Output {
  package static func write(_ text: String) {
    do {
      try FileDescriptor.standardOutput.writeAll(text.utf8)
    } catch {
      Environment.exit(0)
    }
  }

  package static func line(_ text: String) { write(text + "\n") }

  package static func error(_ text: String) {
    try? FileDescriptor.standardError.writeAll(text.utf8)
  }
}

/// Text for standard output gathered into writes of about 64 KiB: a long reply (`list` of many
/// channels) goes out in few system calls, and no more than one write's worth is ever held.
struct OutputBuffer {
  static let writeSize = 1 << 16
  private var text = ""

  mutating func append(_ more: String) {
    text += more
    if text.utf8.count >= OutputBuffer.writeSize { flush() }
  }

  /// Writes what is gathered.
  mutating func flush() {
    guard !text.isEmpty else { return }
    Output.write(text)
    text = ""
  }
}
