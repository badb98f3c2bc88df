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

  @Test func whenStandardErrorIsTheJournalEntriesGoToJournaldWithFieldsAndNotToStandardError() throws {
    let journal = try JournalStandIn()
    try journal.start(arguments: ["--log-level", "debug"])

    let listening = try journal.entry { $0["MESSAGE"]?.hasPrefix("Listening on ") == true }
    #expect(listening["PRIORITY"] == "6")
    #expect(listening["SYSLOG_IDENTIFIER"] == "badged")
    _ = try RawClient(path: journal.socket).request("INCR mail")
    let change = try journal.entry { $0["CHANNEL"] == "mail" }
    #expect(change["PRIORITY"] == "7")
    #expect(change["CLIENT_PID"] == String(getpid()))
    #expect(change["MESSAGE"]?.contains("INCR 'mail'") == true)

    #expect(journal.stop() == 0)
    _ = try journal.entry { $0["MESSAGE"] == "Shutting down." }
    #expect(journal.standardError.isEmpty, "nothing is logged twice: \(journal.standardError)")
  }

  /// journald's queue full (the stand-in reads nothing; the kernel holds 10 datagrams,
  /// net.unix.max_dgram_qlen): the daemon goes on serving, dropping entries, and once the
  /// queue has room again the first entry says how many were dropped. With libsystemd's
  /// `sd_journal_sendv` the daemon waited in `sendmsg` and answered nobody.
  @Test func aJournaldThatIsBehindNeverStopsTheDaemon() throws {
    let journal = try JournalStandIn()
    try journal.start(arguments: ["--log-level", "debug"])
    let client = try RawClient(path: journal.socket)
    for n in 0..<200 { #expect(try client.request("INCR mail")[0].hasPrefix("STATE mail count=\(n + 1) ")) }
    #expect(try RawClient(path: journal.socket).request("PING") == ["OK pong"])
    let count = try journal.entry {
      $0["MESSAGE"]?.hasSuffix(" log lines dropped while the log was not being read.") == true
    }
    #expect(count["PRIORITY"] == "4")
    let dropped = Int(count["MESSAGE"]?.prefix { $0.isNumber } ?? "") ?? 0
    #expect(dropped > 100, "200 requests logged 400 lines and more, 10 of them held: \(dropped)")
    #expect(journal.standardError.isEmpty, "\(journal.standardError)")
  }

  /// Each hook run gets a journal stream of its own, as `badged-hook`, with level prefixes
  /// read; none of its output goes through the daemon.
  @Test func hooksWriteToAJournalStreamOfTheirOwn() throws {
    let journal = try JournalStandIn(streams: true)
    try journal.start(
      config: """
        [daemon]
        on_increase = sh -c 'echo "from the hook of $BADGED_CHANNEL"; echo "<3>an error" >&2'
        """)
    _ = try RawClient(path: journal.socket).request("INCR mail")
    #expect(try journal.nextStream() == "badged-hook\n\n6\n1\n0\n0\n0\nfrom the hook of mail\n<3>an error\n")
    #expect(journal.stop() == 0)
    #expect(journal.standardError.isEmpty, "\(journal.standardError)")
  }
}
