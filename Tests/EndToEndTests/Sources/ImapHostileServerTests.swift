import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The IMAP source against a server that misbehaves on cue (`HostileImapServer`, plain IMAP on
/// loopback): a 100 MB literal, an endless line, responses no RFC defines, `BYE` at each step,
/// silence, a connection closed mid-line. badged-sources stays up with bounded memory, its
/// state names the fault, the server sees it hang up after a bounded read, and where the
/// server's answers are sound in the end the count is exact: its SELECT answers two
/// messages, UID 1 unseen.
@Suite struct ImapHostileServerTests {
  /// The most resident memory badged-sources may hold after any fault.
  static let rssLimitKiB = 64 * 1024
  /// The most a client that refuses a response reads of it: the parser's 4 MiB line, and what
  /// the kernel's socket buffers hold on loopback.
  static let boundedReadBytes = 16 << 20

  /// badged-sources counting `server`'s INBOX.
  static func stage(_ server: HostileImapServer) throws -> ImapStage {
    let folder = try TemporaryFolder()
    return try ImapStage(
      folder: folder, server: "imap+plain://127.0.0.1:\(server.port)",
      credential: try ImapStage.passwordFile(in: folder, "any")
    ) { server.log.joined(separator: "\n") }
  }

  /// badged-sources's resident memory now (VmRSS of /proc/<pid>/status), in KiB.
  static func residentKiB(_ stage: ImapStage) throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(stage.sources.pid)/status", encoding: .utf8)
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
      let kib = Int(line.split(separator: " ")[1])
    else { throw TestFailure("no VmRSS in /proc/\(stage.sources.pid)/status") }
    return kib
  }

  /// After the fault: still running, resident memory under the limit (said in the test's
  /// output), and a clean exit.
  static func expectBoundedAndStop(_ stage: ImapStage, _ what: String) throws {
    #expect(stage.sources.isRunning, "\(stage.context)")
    let rss = try residentKiB(stage)
    print("\(what): badged-sources VmRSS \(rss) KiB after the fault")
    #expect(rss < rssLimitKiB, "\(what): VmRSS \(rss) KiB")
    try stage.stop()
  }

  /// How many bytes of the misbehaviour the server sent before the client hung up (said in
  /// the test's output), once it has.
  static func bytesRead(_ server: HostileImapServer, _ what: String) throws -> Int {
    guard waitUntil({ server.bytesReadBeforeClose != nil }), let read = server.bytesReadBeforeClose else {
      throw TestFailure("the client never hung up: \(server.log)")
    }
    print("\(what): the client hung up after \(read) bytes")
    return read
  }

  /// The source's line once it is `retrying` having counted (`count=` as given): a fault in
  /// IDLE comes milliseconds after the folder synced, often in the same turn of the program's
  /// loop as its ok, so the count is read from the state line, stale at the set synced.
  static func awaitRetrying(_ stage: ImapStage, count: Int) throws -> String {
    try stage.awaitStatus { $0.contains(" state=retrying ") && $0.contains(" count=\(count) ") }
  }

  /// A fault in IDLE, after the folder was synced: `retrying` with `reason`, at count 1.
  static func counterThenRetrying(_ misbehaviour: HostileImapServer.Misbehaviour, reason: String) throws -> (
    HostileImapServer, ImapStage
  ) {
    let server = try HostileImapServer(misbehaviour, at: .idle)
    let stage = try Self.stage(server)
    let status = try awaitRetrying(stage, count: 1)
    #expect(status.hasSuffix("error=\(reason)"), "\(status)\n\(stage.context)")
    return (server, stage)
  }

  @Test func aHundredMegabyteLiteralIsRefusedAtItsHeader() throws {
    let (server, stage) = try Self.counterThenRetrying(
      .hugeLiteral, reason: "protocol violation: a literal of 104857600 bytes (at most 65536)")
    #expect(try Self.bytesRead(server, "literal") < Self.boundedReadBytes)
    try Self.expectBoundedAndStop(stage, "literal")
  }

  @Test func anEndlessLineIsCutAtTheParsersBound() throws {
    let (server, stage) = try Self.counterThenRetrying(
      .endlessLine, reason: "protocol violation: a response longer than 4194304 bytes")
    let read = try Self.bytesRead(server, "endless line")
    #expect(read >= 4 << 20 - 5 && read < Self.boundedReadBytes, "\(read)")
    try Self.expectBoundedAndStop(stage, "endless line")
  }

  @Test(arguments: [HostileImapServer.Step.select, .idle])
  func unknownResponsesAreSkippedAndTheCountIsExact(_ step: HostileImapServer.Step) throws {
    let server = try HostileImapServer(.unknownResponses, at: step)
    let stage = try Self.stage(server)
    _ = try stage.awaitCount(1, limit: 2)
    let status = try stage.awaitStatus { $0.contains(" state=ok ") }
    #expect(status.contains(" count=1 "), "\(status)")
    // The responses after IDLE were read and skipped: the source answers a NOOP round trip
    // (a SIGCONT's check) on the same connection, still ok and counted once.
    #expect(waitUntil { server.log.contains("misbehaving unknown at \(step.rawValue)") }, "\(server.log)")
    stage.sources.signal(SIGCONT)
    #expect(waitUntil { server.log.filter { $0.hasSuffix(" NOOP") }.count == 1 }, "\(server.log)")
    #expect(server.log.filter { $0 == "connection" }.count == 1, "\(server.log)")
    #expect(try stage.awaitStatus { $0.contains(" state=ok ") }.contains(" count=1 "))
    #expect(stage.logLines(containing: "retrying") == 0, "\(stage.context)")
    try Self.expectBoundedAndStop(stage, "unknown at \(step.rawValue)")
  }

  @Test(arguments: [HostileImapServer.Step.greeting, .login, .select, .idle])
  func aByeAtEachStepIsRetryingWithTheServersWords(_ step: HostileImapServer.Step) throws {
    let server = try HostileImapServer(.bye, at: step)
    let stage = try Self.stage(server)
    // Counted only when the BYE comes in IDLE, after the folder synced.
    let status = try Self.awaitRetrying(stage, count: step == .idle ? 1 : 0)
    #expect(
      status.hasSuffix("error=the server closed the session: Going away at \(step.rawValue)"),
      "\(status)\n\(stage.context)")
    try Self.expectBoundedAndStop(stage, "bye at \(step.rawValue)")
  }

  @Test(arguments: [HostileImapServer.Step.greeting, .login, .select])
  func aServerThatNeverAnswersIsGivenUpAfterThirtySeconds(_ step: HostileImapServer.Step) throws {
    let server = try HostileImapServer(.stuck, at: step)
    let stage = try Self.stage(server)
    var last: String?
    let retrying = try waitUntil(timeout: 45) {
      last = try SourcesFixture.status(of: "inbox", on: stage.daemon)
      return last?.contains(" state=retrying ") ?? false
    }
    #expect(retrying, "\(last ?? "none")\n\(stage.context)")
    #expect(last?.hasSuffix("error=no answer from 127.0.0.1 in 30 s") ?? false, "\(last ?? "none")")
    // It hung up: the server read the end of the connection.
    #expect(waitUntil { server.log.contains("client closed after 0 bytes") }, "\(server.log)")
    try Self.expectBoundedAndStop(stage, "stuck at \(step.rawValue)")
  }

  @Test func aConnectionClosedMidLineIsRetrying() throws {
    let (_, stage) = try Self.counterThenRetrying(
      .closeMidLine, reason: "the server closed the session: connection closed")
    try Self.expectBoundedAndStop(stage, "close mid-line")
  }
}
