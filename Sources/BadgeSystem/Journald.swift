import CSystemd
import Glibc

/// journald's native protocol: one entry with structured fields (`sd_journal_sendv`).
///
/// `sd_journal_send` is variadic and cannot be called from Swift; `sd_journal_sendv` takes the
/// same `KEY=value` fields as an array of `iovec`.
public enum Journald {
  /// Whether standard error is connected to the journal: `JOURNAL_STREAM` (set by systemd for a
  /// service whose output goes to the journal) names the device and inode of fd 2.
  ///
  /// This is systemd's documented test (systemd.exec(5), `$JOURNAL_STREAM`). The variable alone
  /// is not enough: a program started from a service's shell inherits it with another stderr.
  public static var isStandardErrorConnected: Bool {
    guard let stream = Environment.value("JOURNAL_STREAM") else { return false }
    let parts = stream.split(separator: ":")
    guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
    var st = stat()
    guard fstat(2, &st) == 0 else { return false }
    return UInt64(st.st_dev) == device && UInt64(st.st_ino) == inode
  }

  /// Sends one entry made of `fields` (`"MESSAGE=…"`, `"PRIORITY=6"`, …).
  ///
  /// - Returns: whether journald took it. libsystemd reports success when no journald runs at
  ///   all (the entry is dropped), so callers check `isStandardErrorConnected` first.
  @discardableResult
  public static func send(_ fields: [String]) -> Bool {
    guard !fields.isEmpty else { return true }
    // One buffer for every field, so that every iovec points into memory that stays valid
    // for the whole call.
    var bytes: [UInt8] = []
    var ranges: [Range<Int>] = []
    for field in fields {
      let start = bytes.count
      bytes.append(contentsOf: field.utf8)
      ranges.append(start..<bytes.count)
    }
    return bytes.withUnsafeMutableBytes { raw in
      var vectors = ranges.map { iovec(iov_base: raw.baseAddress! + $0.lowerBound, iov_len: $0.count) }
      return sd_journal_sendv(&vectors, CInt(vectors.count)) >= 0
    }
  }
}
