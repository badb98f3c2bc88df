import BadgePersistence
import Foundation
import TestSupport
import Testing

/// What the daemon does with damaged, empty, half-compacted and unusable state folders.
@Suite struct RecoveryTests {
  /// A daemon that made `changes` and then crashed: its journal holds them all.
  static func crashedAfter(_ changes: [String], config: String? = nil) throws -> (TemporaryFolder, DaemonProcess) {
    let daemon = try DaemonProcess(config: config)
    let client = try daemon.client()
    for change in changes { #expect(try client.request(change).last == "OK") }
    daemon.crash()
    return (daemon.folder, daemon)
  }

  static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }
  static func write(_ bytes: [UInt8], _ path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }

  /// `tail` written where the journal at `path` ends: into the room the daemon made ahead of
  /// its records (as a write a crash cut short leaves it), or, with `room` false, after the
  /// records of the journal cut back to them (as a journal without room leaves it).
  static func writeAtTheEnd(_ tail: [UInt8], journal path: String, room: Bool) throws {
    var bytes = try Self.bytes(path)
    let end = RecordFile.scan(bytes, magic: RecordFile.journalMagic).validLength
    #expect(bytes.count - end > tail.count, "the daemon made room after its records")
    if room {
      bytes.replaceSubrange(end..<end + tail.count, with: tail)
    } else {
      bytes = Array(bytes[..<end]) + tail
    }
    try Self.write(bytes, path)
  }

  static func counts(_ daemon: DaemonProcess, _ channels: [String]) throws -> [String] {
    let client = try daemon.client()
    return try channels.map { try field(client.request("GET \($0)")[0], "count") ?? "?" }
  }

  @Test func aCleanRestartKeepsCountsMutesSettingsAndTheSequence() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    _ = try client.request("SET mail 120")
    _ = try client.request("MUTE ci")
    _ = try client.request("INCR ci 2")
    _ = try client.request("CONFIGURE app:x style=dot max_label=9 pulse_ms=100 step=5")
    _ = try client.request("SET app:x 12")
    let before = try client.request("LIST")
    #expect(before.contains { $0.hasPrefix("STATE app:x ") && $0.hasSuffix(" step=5 total=12") })
    #expect(daemon.stop() == 0)
    let again = try DaemonProcess(folder: daemon.folder)
    let after = try again.client().request("LIST")
    #expect(after.map(withoutPulse) == before.map(withoutPulse))
    #expect(try field(again.client().request("INCR mail")[0], "seq") == "6", "seq goes on from where it was")
    #expect(!again.log.contains("journal"), "a clean stop leaves nothing to replay: \(again.log)")
  }

  @Test func aStepSetOverTheSocketIsReplayedFromTheJournal() throws {
    let (folder, _) = try Self.crashedAfter([
      "CONFIGURE mail step=7", "CONFIGURE ci step=3", "CONFIGURE ci step=default",
    ])
    let daemon = try DaemonProcess(folder: folder)
    let client = try daemon.client()
    #expect(try field(client.request("GET mail")[0], "step") == "7")
    #expect(try field(client.request("GET ci")[0], "step") == nil, "back to 1, which lines leave out")
  }

  @Test func theSequenceNumberNeverGoesBackEvenWhenChannelsAreGone() throws {
    let (folder, _) = try Self.crashedAfter(["INCR a", "INCR b", "CLEAR a", "CLEAR b"])
    let daemon = try DaemonProcess(folder: folder)
    #expect(try field(daemon.client().request("INCR c")[0], "seq") == "5")
  }

  /// Cut after a byte that is not zero (the room's zeros follow the cut), inside the room or
  /// at the end of a journal without room.
  @Test(arguments: [1, 5, 10, 19], [true, false])
  func aTornRecordAtTheEndIsCutOffWithOneWarning(cut: Int, room: Bool) throws {
    let (folder, crashed) = try Self.crashedAfter(["SET mail 3", "SET ci 4", "INCR mail"])
    // The start of a record for `SET other 9`, cut after `cut` bytes.
    let partial: [UInt8] = [27, 0, 0, 0, 0x11, 0x22, 0x33, 0x44, 1, 4, 0, 0, 0, 0, 0, 0, 0, 5, 0x6F]
    try Self.writeAtTheEnd(Array(partial.prefix(cut)), journal: crashed.stateFile("journal"), room: room)
    let daemon = try DaemonProcess(folder: folder)
    #expect(try Self.counts(daemon, ["mail", "ci", "other"]) == ["4", "4", "0"])
    let warnings = daemon.log.split(separator: "\n").filter { $0.contains("torn") }
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("Dropped \(cut) bytes") == true, "\(daemon.log)")
    #expect(!daemon.log.contains("damaged"))
  }

  @Test(arguments: [true, false])
  func randomBytesAfterTheLastRecordAreATornTail(room: Bool) throws {
    let (folder, crashed) = try Self.crashedAfter(["SET mail 3", "INCR mail"])
    var generator = SplitMix(seed: 42)
    let garbage = (0..<332).map { _ in UInt8.random(in: 0...255, using: &generator) } + [0xA5]
    try Self.writeAtTheEnd(garbage, journal: crashed.stateFile("journal"), room: room)
    let daemon = try DaemonProcess(folder: folder)
    #expect(try Self.counts(daemon, ["mail"]) == ["4"])
    #expect(daemon.log.contains("Dropped 333 bytes of a torn record"))
  }

  /// With `sync = always` a crashed daemon's journal holds room after its records: the next
  /// start loads them without a word about damage, starts a new journal, makes room again
  /// and keeps appending; a crash after that loads every change again.
  @Test func aJournalWithRoomLoadsQuietlyAndTheNextLifeKeepsAppending() throws {
    let (folder, crashed) = try Self.crashedAfter(["SET mail 3", "INCR ci 2"])
    let chunk = 1 << 20
    let first = try Self.bytes(crashed.stateFile("journal"))
    #expect(first.count == chunk, "a chunk of room made ahead")
    let records = RecordFile.scan(first, magic: RecordFile.journalMagic)
    #expect(records.records.count == 2 && records.damage == nil)
    var daemon = try DaemonProcess(folder: folder)
    #expect(try Self.counts(daemon, ["mail", "ci"]) == ["3", "2"])
    #expect(!daemon.log.contains("<4>") && !daemon.log.contains("<3>"), "\(daemon.log)")
    let client = try daemon.client()
    for _ in 0..<3 { #expect(try client.request("INCR mail").last == "OK") }
    daemon.crash()
    let second = try Self.bytes(crashed.stateFile("journal"))
    #expect(second.count == chunk)
    #expect(RecordFile.scan(second, magic: RecordFile.journalMagic).records.count == 3, "a new journal")
    daemon = try DaemonProcess(folder: folder)
    #expect(try Self.counts(daemon, ["mail", "ci"]) == ["6", "2"])
    #expect(!daemon.log.contains("<4>") && !daemon.log.contains("<3>"), "\(daemon.log)")
  }

  /// The other modes make no room: their flushes are a second apart or none.
  @Test func withSyncEverysecTheJournalEndsAtItsLastRecord() throws {
    let (_, crashed) = try Self.crashedAfter(["SET mail 3", "INCR ci 2"], config: "[daemon]\nsync = everysec\n")
    let bytes = try Self.bytes(crashed.stateFile("journal"))
    let contents = RecordFile.scan(bytes, magic: RecordFile.journalMagic)
    #expect(contents.records.count == 2 && contents.damage == nil)
    #expect(contents.validLength == bytes.count)
  }

  @Test func aCorruptRecordInTheMiddleIsKeptLoadedUpToAndReportedLoudly() throws {
    let (folder, crashed) = try Self.crashedAfter(["SET a 1", "SET b 2", "SET c 3", "SET d 4"])
    let journal = crashed.stateFile("journal")
    var bytes = try Self.bytes(journal)
    let original = bytes
    // Records follow the 8-byte header; each "SET x n" writes one channel record: a frame
    // header of 8 bytes and a payload of 16 (kind, seq, name length, name, count, flags) and 9
    // of its day of history (tag, day, arrivals, clears, peak and end count, one byte each
    // here). Damage the third.
    let third = 8 + 2 * (8 + 16 + 9)
    bytes[third + 12] ^= 0xFF
    try Self.write(bytes, journal)
    let daemon = try DaemonProcess(folder: folder)
    #expect(try Self.counts(daemon, ["a", "b", "c", "d"]) == ["1", "2", "0", "0"])
    let line = try #require(daemon.log.split(separator: "\n").first { $0.contains("damaged") })
    #expect(line.hasPrefix("<3>"), "an error, not a warning: \(line)")
    #expect(line.contains("at byte \(third)"))
    let copies = try FileManager.default.contentsOfDirectory(atPath: daemon.stateFolder).filter {
      $0.hasPrefix("journal.damaged-")
    }
    #expect(copies.count == 1)
    #expect(try Self.bytes(daemon.stateFile(copies[0])) == bytes, "the copy is the damaged file as it was")
    #expect(bytes != original)
  }

  @Test func emptyFilesAreAFreshStart() throws {
    let daemon = try DaemonProcess()
    // The socket accepts before the state folder is loaded; a reply comes after it is.
    #expect(try daemon.client().request("PING") == ["OK pong"])
    daemon.crash()
    try Self.write([], daemon.stateFile("journal"))
    let withEmptyJournal = try DaemonProcess(folder: daemon.folder)
    #expect(try Self.counts(withEmptyJournal, ["mail"]) == ["0"])
    #expect(!withEmptyJournal.log.contains("<4>") && !withEmptyJournal.log.contains("<3>"), "\(withEmptyJournal.log)")
    withEmptyJournal.crash()
    try Self.write([], daemon.stateFile("snapshot"))
    let withEmptySnapshot = try DaemonProcess(folder: daemon.folder)
    // The socket listens before the state is loaded: the reply comes after the load, and so
    // after what it logged.
    #expect(try withEmptySnapshot.client().request("INCR mail")[0].hasPrefix("STATE mail count=1 "))
    #expect(
      withEmptySnapshot.log.contains("snapshot") && withEmptySnapshot.log.contains("empty"), "\(withEmptySnapshot.log)")
  }

  @Test func aCompactionCutShortByACrashLoadsToTheSameCounts() throws {
    // The journal of a crashed daemon, and the snapshot a finished compaction of that state
    // would write: a crash after the snapshot's rename but before the new journal.
    let (folder, crashed) = try Self.crashedAfter(["SET a 1", "SET b 2", "MUTE c", "INCR a 5"])
    let journal = try Self.bytes(crashed.stateFile("journal"))
    let clean = try DaemonProcess(folder: folder)
    let expected = try clean.client().request("LIST").map(withoutPulse)
    #expect(clean.stop() == 0)
    try Self.write(journal, crashed.stateFile("journal"))
    // And a temporary snapshot from a compaction that was being written.
    try Self.write(Array("BADGEDS1 half written".utf8), crashed.stateFile("snapshot.tmp"))
    let daemon = try DaemonProcess(folder: folder)
    #expect(try daemon.client().request("LIST").map(withoutPulse) == expected)
    #expect(!FileManager.default.fileExists(atPath: crashed.stateFile("snapshot.tmp")))
    #expect(!daemon.log.contains("damaged") && !daemon.log.contains("torn"), "\(daemon.log)")
  }

  @Test func anUnwritableStateFolderStopsTheStartWithAClearReason() throws {
    let folder = try TemporaryFolder()
    let state = folder.file("state")
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    var wrapper: [String] = []
    var executable = Binaries.badged.path
    var environment: [String: String] = [:]
    if getuid() == 0 {
      // root writes anywhere: run the installed badged (nobody may not reach the checkout's)
      // as nobody, with a socket folder nobody owns.
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: state)
      chown(folder.path, 65534, 65534)
      wrapper = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
      let installed = try InstalledBinaries.copy()
      executable = installed.path("badged")
      environment = installed.environment
    } else {
      try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: state)
    }
    let daemon = try DaemonProcess(
      folder: folder, wrapper: wrapper, environment: environment, waitForSocket: false, executable: executable)
    #expect(daemon.exitStatus() == 1)
    #expect(daemon.log.contains("Failed to use the state folder '\(state)'"), "\(daemon.log)")
    #expect(daemon.log.contains("Permission denied"))
    #expect(!FileManager.default.fileExists(atPath: daemon.socket), "no socket is left behind")
  }

  @Test func twoDaemonsNeverShareAStateFolder() throws {
    let first = try DaemonProcess()
    let second = try DaemonProcess(folder: first.folder, socket: first.folder.file("other.sock"), waitForSocket: false)
    #expect(second.exitStatus() == 1)
    #expect(second.log.contains("is another badged using it?"), "\(second.log)")
    #expect(try first.client().request("PING") == ["OK pong"])
  }
}
