import Foundation
import Testing

/// When the state cannot be saved, nothing unsaved is acknowledged or seen, changes are refused
/// until a repair works, and the log says so once.
@Suite struct SaveFailureTests {
  static let errorPrefix = "<3>"
  static let limit = 16 << 10

  /// The number of log lines of priority `err` that contain `text`.
  static func errorLines(_ log: String, containing text: String) -> Int {
    log.split(separator: "\n").filter { $0.hasPrefix(errorPrefix) && $0.contains(text) }.count
  }

  /// The size of a file.
  static func size(_ path: String) throws -> Int {
    try (FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? -1
  }

  @Test func aFailedWriteIsUndoneRefusesChangesUntilARepairAndIsLoggedOnce() throws {
    // A state whose snapshot is larger than the limit set below, so that repairs (which
    // write a snapshot) fail until the test lifts the limit.
    let first = try DaemonProcess()
    let setup = try first.client()
    var batch = ""
    for i in 0..<500 { batch += "INCR a-channel-name-long-enough-to-fill-the-snapshot-\(i)\n" }
    try setup.send(batch)
    for _ in 0..<500 { _ = try setup.readReply() }
    #expect(first.stop() == 0)
    // `everysec`, whose journal has no room made ahead: its writes make the file longer, so the
    // limit below stops them at once (with `always` they fill the room first: the test after
    // this one).
    let daemon = try DaemonProcess(folder: first.folder, config: "[daemon]\nsync = everysec\n")
    // A round trip: the daemon has loaded the state and written its start-up snapshot.
    #expect(try daemon.client().request("PING") == ["OK pong"])
    #expect(try Self.size(daemon.stateFile("snapshot")) > 2 * Self.limit)
    // A file size limit makes the journal's writes fail (EFBIG) past 16 KiB. (It applies to
    // the daemon's log file too, which stays far smaller at the default log level.)
    #expect(try run("/usr/bin/prlimit", ["--pid", "\(daemon.pid)", "--fsize=\(Self.limit):unlimited"]).status == 0)

    let watcher = try daemon.client()
    #expect(
      try watcher.request("WATCH mail") == [
        "STATE * dnd=0 left=0",
        "STATE mail count=0 label= dot=0 pulse=0 muted=0 seq=0 badge=count dnd=off unseen=0 total=0", "OK watching",
      ])
    let writer = try daemon.client()
    var acknowledged = 0
    while acknowledged < 2000 {
      try writer.send("INCR mail\n")
      guard let line = try writer.readLine() else { break }  // closed without a reply
      #expect(line.hasPrefix("STATE mail count=\(acknowledged + 1) "))
      #expect(try writer.readLine() == "OK")
      acknowledged += 1
      #expect(try watcher.readLine()?.hasPrefix("EVENT mail count=\(acknowledged) ") == true)
    }
    #expect(acknowledged > 10 && acknowledged < 2000, "the journal filled up after \(acknowledged) changes")

    // The refused change was undone: a reader sees the last acknowledged count, the watcher
    // got no event for it, and changes are refused until a repair works.
    let other = try daemon.client()
    let refused = try other.request("INCR mail")
    #expect(refused.count == 1)
    #expect(
      refused[0].hasPrefix("ERR failed Changes are refused until the state can be saved again: Failed to write to '"))
    #expect(refused[0].hasSuffix("/journal': File too large"))
    #expect(try field(other.request("GET mail")[0], "count") == String(acknowledged))
    #expect(try watcher.request("PING") == ["OK pong"], "no event of the undone change came before the pong")

    // Repairs fail (the snapshot is over the limit) and are retried; the log names the
    // failure once however many turns and repairs fail.
    #expect(waitUntil { daemon.log.contains("retrying every second") }, "\(daemon.log)")
    #expect(try other.request("SET mail 1")[0].hasPrefix("ERR failed "))
    let log = daemon.log
    #expect(Self.errorLines(log, containing: "File too large") == 1, "\(log)")
    #expect(Self.errorLines(log, containing: "Refusing changes until the state can be saved") == 1)
    #expect(log.components(separatedBy: "Failed to repair the state folder").count == 2)

    // With the limit gone, a repair works and changes are accepted again.
    #expect(try run("/usr/bin/prlimit", ["--pid", "\(daemon.pid)", "--fsize=unlimited"]).status == 0)
    #expect(try waitUntil { try daemon.client().request("INCR ok").last == "OK" })
    let notices = daemon.log.split(separator: "\n").filter { $0.contains("accepting changes") }
    #expect(notices.count == 1)
    #expect(notices.first?.contains(" after 0 failed repair(s)") == false, "\(notices)")

    // After a crash, every acknowledged change is there, and nothing else.
    daemon.crash()
    let restarted = try DaemonProcess(folder: daemon.folder)
    #expect(try field(restarted.client().request("GET mail")[0], "count") == String(acknowledged))
  }

  /// With `always` the journal's records go into room made ahead, which a file size limit at
  /// the journal's length on disk does not stop; once the room is full the next chunk cannot
  /// be made, the records' own write past the limit fails and is undone like any failed write,
  /// and everything acknowledged before it loads.
  @Test func withSyncAlwaysTheTurnThatMakesRoomPastTheLimitFailsAndIsUndone() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    #expect(try client.request("PING") == ["OK pong"])
    let room = 1 << 20
    #expect(try Self.size(daemon.stateFile("journal")) == room, "the start made the first chunk")
    #expect(try run("/usr/bin/prlimit", ["--pid", "\(daemon.pid)", "--fsize=\(room):unlimited"]).status == 0)
    // Batches of 500 changes until one is refused: about 36 bytes each, the room holds some
    // 29,000.
    var acknowledged = 0
    var refusal: String?
    batches: for _ in 0..<200 {
      try client.send(String(repeating: "INCR mail\n", count: 500))
      for _ in 0..<500 {
        guard let line = try client.readLine() else { break batches }  // closed without a reply
        if line.hasPrefix("ERR ") {
          refusal = line
          break batches
        }
        #expect(line.hasPrefix("STATE mail count=\(acknowledged + 1) "))
        #expect(try client.readLine() == "OK")
        acknowledged += 1
      }
    }
    #expect(acknowledged > 20_000, "the room took the records of \(acknowledged) changes")
    #expect(refusal == nil, "the turn that failed is closed without replies: \(refusal ?? "")")
    // The failure is logged once; a repair (a compaction: a small snapshot, a new journal and
    // its first chunk, all within the limit) then works and changes are accepted again.
    #expect(try waitUntil { try daemon.client().request("INCR ok").last == "OK" })
    #expect(Self.errorLines(daemon.log, containing: "/journal': File too large") == 1, "\(daemon.log)")
    #expect(daemon.log.contains("Cannot make room ahead in the journal"), "\(daemon.log)")
    #expect(try field(daemon.client().request("GET mail")[0], "count") == String(acknowledged))
    daemon.crash()
    let restarted = try DaemonProcess(folder: daemon.folder)
    #expect(try field(restarted.client().request("GET mail")[0], "count") == String(acknowledged))
    #expect(!restarted.log.contains("damaged"), "\(restarted.log)")
  }
}
