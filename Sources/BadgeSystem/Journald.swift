import BadgeCore
import BadgeLog
import Glibc

/// journald, spoken to directly: entries with structured fields as datagrams of its native
/// protocol (`JournalSocket`), and a stream of its own for a child's output (`openStream`).
///
/// libsystemd's calls are not used for either: `sd_journal_sendv` sends on a blocking socket,
/// so a journald that does not keep up makes it wait (and past that it passes the entry in a
/// memfd over the same socket, waiting again); `sd_journal_stream_fd` connects and writes its
/// header blocking. Both protocols are small and documented in journald's sources
/// (journald-native.c, journald-stream.c).
public enum Journald {
  /// Where journald reads native entries.
  public static let socketPath = "/run/systemd/journal/socket"
  /// Where journald accepts output streams (what `StandardOutput=journal` connects to).
  public static let streamPath = "/run/systemd/journal/stdout"

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

  /// One entry in the native protocol: `KEY=value` lines, and for a value with a line feed in
  /// it the key, a line feed, the value's length as 64 bits little-endian, the value and a line
  /// feed.
  static func entry(_ fields: [(name: String, value: String)]) -> [UInt8] {
    var bytes: [UInt8] = []
    for (name, value) in fields {
      bytes.append(contentsOf: name.utf8)
      if value.utf8.contains(0x0A) {
        bytes.append(0x0A)
        var length = UInt64(value.utf8.count).littleEndian
        withUnsafeBytes(of: &length) { bytes.append(contentsOf: $0) }
      } else {
        bytes.append(UInt8(ascii: "="))
      }
      bytes.append(contentsOf: value.utf8)
      bytes.append(0x0A)
    }
    return bytes
  }

  /// A new stream to journald for a child's standard output and error, whose lines become
  /// entries with `SYSLOG_IDENTIFIER=identifier` at `priority`, or at the priority a line's
  /// `<N>` prefix gives.
  ///
  /// The connection and the header are made without waiting (journald's backlog full is
  /// `EAGAIN`); the descriptor is then made blocking, as a child's output is, and
  /// close-on-exec, so that only the child it is handed to keeps it.
  ///
  /// - Throws: `SystemError` when journald does not take the stream now.
  public static func openStream(
    identifier: String, priority: Logger.Level, path: String = streamPath
  ) throws(SystemError) -> FileDescriptor {
    let fd = try UnixSocket.connect(path: path, nonBlocking: true)
    _ = shutdown(fd.rawValue, Int32(SHUT_RD))
    // Identifier, unit (none), priority, level prefixes read, and no forwarding to syslog,
    // the kernel log or the console.
    let header = Array("\(identifier)\n\n\(priority.rawValue)\n1\n0\n0\n0\n".utf8)
    do throws(Errno) {
      // Into an empty socket buffer: all of it, or journald is gone.
      let sent = header.withUnsafeBytes { raw in Result { () throws(Errno) in try fd.write(raw, socket: true) } }
      guard case .processed(header.count) = try sent.get() else { throw Errno(rawValue: EAGAIN) }
      try fd.setNonBlocking(false)
    } catch {
      fd.close()
      throw SystemError("start a journal stream on '\(path)'", error)
    }
    return fd
  }
}

/// journald's native socket, written without waiting: a datagram socket of our own, connected,
/// non-blocking, so that a journald that is behind makes a send fail with `EAGAIN` (the entry
/// is then dropped and counted by `LogOutput`) instead of stopping the daemon. Being
/// connected, epoll says when journald's queue has room again.
struct JournalSocket {
  /// What a send did.
  enum Sent: Equatable {
    case sent
    /// journald's queue is full.
    case wouldBlock
    /// journald is not there, or refused the entry (too large).
    case failed
  }

  let path: String
  private(set) var descriptor: CInt = -1

  init(path: String = Journald.socketPath) {
    self.path = path
    connect()
  }

  func close() {
    if descriptor >= 0 { Glibc.close(descriptor) }
  }

  /// Sends one entry (`Journald.entry`); reconnects once when journald's socket was made anew.
  mutating func send(_ entry: [UInt8]) -> Sent {
    for attempt in 0..<2 {
      if descriptor < 0 { connect() }
      guard descriptor >= 0 else { return .failed }
      let n = entry.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n >= 0 { return .sent }
      let error = errno
      if error == EAGAIN || error == EINTR { return .wouldBlock }
      guard attempt == 0, error == ECONNREFUSED || error == ENOTCONN else { return .failed }
      close()
      descriptor = -1
    }
    return .failed
  }

  private mutating func connect() {
    descriptor = (try? UnixSocket.connect(path: path, datagram: true, nonBlocking: true))?.rawValue ?? -1
  }
}
