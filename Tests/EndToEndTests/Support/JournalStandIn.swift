import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// journald stood in for by sockets of the test's, mounted over /run/systemd/journal in a
/// private mount namespace (`unshare --mount`, as root): a datagram socket for native entries
/// (`socket`) and, when asked, a stream listener for output streams (`stdout`); the daemon's
/// standard error a file marked as the journal stream with `JOURNAL_STREAM`, as systemd does
/// for a service.
final class JournalStandIn {
  let folder: TemporaryFolder
  let entries: DatagramListener
  /// The listener for output streams, when the test asked for one.
  let streams: Int32?
  let stderrPath: String
  let socket: String
  /// The daemon, once started: killed with the stand-in unless `stop()` ended it first.
  private var daemon: Child?

  init(streams wantsStreams: Bool = false) throws {
    try Binaries.check()
    folder = try TemporaryFolder()
    try FileManager.default.createDirectory(atPath: folder.file("journal"), withIntermediateDirectories: true)
    entries = try DatagramListener(path: folder.file("journal/socket"))
    streams = wantsStreams ? try JournalStandIn.listen(folder.file("journal/stdout")) : nil
    stderrPath = folder.file("stderr.log")
    socket = folder.file("badged.sock")
    _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
  }

  deinit {
    if let streams { close(streams) }
  }

  /// Starts `badged` in the namespace, with its standard error the journal stream.
  func start(config: String? = nil, arguments: [String] = []) throws {
    var st = stat()
    guard stat(stderrPath, &st) == 0 else { throw TestFailure("no \(stderrPath)") }
    var environment = Child.environment()
    environment["JOURNAL_STREAM"] = "\(st.st_dev):\(st.st_ino)"
    var args = ["--socket", socket, "--state-dir", folder.file("state")] + arguments
    if let config { args += ["--config", try folder.write("badged.conf", config)] }
    let script = """
      mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/journal \
        && mount --bind "$1" /run/systemd/journal && shift && exec "$@"
      """
    let daemon = try Child(
      ["/usr/bin/unshare", "--mount", "/bin/sh", "-c", script, "sh", folder.file("journal"), Binaries.badged.path]
        + args,
      environment: environment, stderr: .file(stderrPath))
    self.daemon = daemon
    guard waitUntil(timeout: 10, { RawClient.canConnect(socket) }) else {
      throw TestFailure("badged did not start: \(standardError)")
    }
  }

  /// SIGTERM, then the daemon's exit status.
  func stop() -> Int32 {
    daemon?.signal(SIGTERM)
    return daemon?.wait() ?? -1
  }

  /// What the daemon wrote to standard error (nothing, while the journal takes its lines).
  var standardError: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

  /// The next native entry (`KEY=value` lines) that satisfies `match`.
  func entry(timeout: Double = 10, _ match: ([String: String]) -> Bool) throws -> [String: String] {
    var entry: [String: String] = [:]
    _ = try entries.next(timeout: timeout) { datagram in
      entry = [:]
      for line in datagram.split(separator: "\n") {
        guard let eq = line.firstIndex(of: "=") else { continue }
        entry[String(line[..<eq])] = String(line[line.index(after: eq)...])
      }
      return match(entry)
    }
    return entry
  }

  /// Everything the next output stream sends until it closes: its header lines, then the
  /// output (waiting up to `timeout` seconds for the stream).
  func nextStream(timeout: Double = 10) throws -> String {
    guard let streams else { throw TestFailure("no stream listener") }
    var poller = pollfd(fd: streams, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else { throw TestFailure("no stream within \(timeout) s") }
    let fd = accept(streams, nil, nil)
    guard fd >= 0 else { throw TestFailure("accept failed: errno \(errno)") }
    defer { close(fd) }
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while case let n = read(fd, &buffer, buffer.count), n > 0 { data += buffer[..<n] }
    return String(decoding: data, as: UTF8.self)
  }

  private static func listen(_ path: String) throws -> Int32 {
    let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = unixAddress(path)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0, Glibc.listen(fd, 16) == 0 else { throw TestFailure("listen on \(path) failed: errno \(errno)") }
    return fd
  }
}
