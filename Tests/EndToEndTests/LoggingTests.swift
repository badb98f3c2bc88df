import Foundation
import Testing

/// Where the daemon's log goes: journald with structured fields when standard error is the
/// journal, standard error with `<N>` priority prefixes otherwise; `--log-level` filters both.
@Suite struct LoggingTests {
  @Test func standardErrorLinesCarryTheirPriority() throws {
    let daemon = try DaemonProcess(arguments: ["--log-level", "debug"])
    _ = try daemon.client().request("INCR mail")
    #expect(daemon.stop() == 0)
    let lines = daemon.log.split(separator: "\n")
    #expect(lines.contains { $0.hasPrefix("<6>Listening on ") }, "\(lines)")
    #expect(lines.contains { $0.hasPrefix("<7>Client ") && $0.contains("INCR 'mail', count 1") }, "\(lines)")
    #expect(lines.contains("<6>Shutting down."))
  }

  @Test func theLogLevelDropsLessSevereLines() throws {
    let daemon = try DaemonProcess(arguments: ["--log-level", "warning"])
    _ = try daemon.client().request("INCR mail")
    #expect(daemon.stop() == 0)
    #expect(daemon.log.isEmpty, "\(daemon.log)")
  }

  @Test func aJournalStreamThatIsNotStandardErrorIsIgnored() throws {
    // A program started from a service's shell inherits JOURNAL_STREAM with another stderr.
    let daemon = try DaemonProcess(environment: ["JOURNAL_STREAM": "1:1"])
    #expect(daemon.stop() == 0)
    #expect(daemon.log.contains("<6>Listening on "))
  }

  /// journald stood in for by a datagram socket of the test's, mounted over
  /// /run/systemd/journal in a private mount namespace (`unshare --mount`, as root), and stderr
  /// marked as the journal stream with `JOURNAL_STREAM`, as systemd does for a service.
  @Test func whenStandardErrorIsTheJournalEntriesGoToJournaldWithFieldsAndNotToStandardError() throws {
    try Binaries.check()
    let folder = try TemporaryFolder()
    try FileManager.default.createDirectory(atPath: folder.file("journal"), withIntermediateDirectories: true)
    let journal = try DatagramListener(path: folder.file("journal/socket"))
    let logPath = folder.file("stderr.log")
    _ = FileManager.default.createFile(atPath: logPath, contents: nil)
    var st = stat()
    #expect(stat(logPath, &st) == 0)
    let environment = Child.environment(["JOURNAL_STREAM": "\(st.st_dev):\(st.st_ino)"])
    let socket = folder.file("badged.sock")
    let script = """
      mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/journal \
        && mount --bind "$1" /run/systemd/journal && shift && exec "$@"
      """
    let daemon = try Child(
      ["/usr/bin/unshare", "--mount", "/bin/sh", "-c", script, "sh", folder.file("journal"),
       Binaries.badged.path, "--socket", socket, "--state-dir", folder.file("state"), "--log-level", "debug"],
      environment: environment, stderr: .file(logPath))
    defer {
      daemon.signal(SIGTERM)
      _ = daemon.wait()
    }

    let listening = try journalEntry(journal) { $0["MESSAGE"]?.hasPrefix("Listening on ") == true }
    #expect(listening["PRIORITY"] == "6")
    #expect(listening["SYSLOG_IDENTIFIER"] == "badged")
    #expect(waitUntil(timeout: 5) { RawClient.canConnect(socket) })
    _ = try RawClient(path: socket).request("INCR mail")
    let change = try journalEntry(journal) { $0["CHANNEL"] == "mail" }
    #expect(change["PRIORITY"] == "7")
    #expect(change["CLIENT_PID"] == String(getpid()))
    #expect(change["MESSAGE"]?.contains("INCR 'mail'") == true)

    daemon.signal(SIGTERM)
    #expect(daemon.wait() == 0)
    _ = try journalEntry(journal) { $0["MESSAGE"] == "Shutting down." }
    let stderr = try String(contentsOfFile: logPath, encoding: .utf8)
    #expect(stderr.isEmpty, "nothing is logged twice: \(stderr)")
  }

  /// The next journal entry (native protocol: `KEY=value` lines) that satisfies `match`.
  private func journalEntry(_ journal: DatagramListener, _ match: ([String: String]) -> Bool) throws -> [String: String] {
    var entry: [String: String] = [:]
    _ = try journal.next(timeout: 10) { datagram in
      entry = [:]
      for line in datagram.split(separator: "\n") {
        guard let eq = line.firstIndex(of: "=") else { continue }
        entry[String(line[..<eq])] = String(line[line.index(after: eq)...])
      }
      return match(entry)
    }
    return entry
  }
}
