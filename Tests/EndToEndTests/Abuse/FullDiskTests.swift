import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The state folder on a small tmpfs that fills up while clients write: nothing unsaved is
/// acknowledged or kept, reads go on, and writing resumes once there is room again.
@Suite struct FullDiskTests {
  /// A folder for a daemon whose state folder is a tmpfs of `size` (`64k`, `16m`); the caller
  /// unmounts it (`unmount`).
  static func stateOnTmpfs(size: String) throws -> (folder: TemporaryFolder, state: String) {
    let folder = try TemporaryFolder()
    let state = folder.file("state")
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    let mounted = try run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", state])
    try #require(mounted.status == 0, "mounting a tmpfs needs root: \(mounted.stderr)")
    return (folder, state)
  }

  static func unmount(_ state: String) { _ = try? run("/usr/bin/umount", ["-l", state]) }

  @Test func aFullDiskDuringWrites() throws {
    let (folder, state) = try Self.stateOnTmpfs(size: "64k")
    defer { Self.unmount(state) }

    let daemon = try DaemonProcess(folder: folder)
    let reader = try daemon.client()
    let writer = try daemon.client()
    var acknowledged = 0
    while acknowledged < 100_000 {
      try writer.send("INCR mail\n")
      guard let reply = try? writer.readReply(timeout: 10), reply.last == "OK" else { break }
      acknowledged += 1
    }
    #expect(acknowledged > 100 && acknowledged < 100_000, "the disk filled after \(acknowledged) changes")
    #expect(
      waitUntil { daemon.log.split(separator: "\n").contains { $0.hasPrefix("<3>") && $0.contains("No space left") } },
      "\(daemon.log)")
    // The journal's room (1 MiB) never fit in 64 KiB: the journal grew by appends instead.
    let warnings = daemon.log.split(separator: "\n").filter { $0.contains("Cannot make room ahead in the journal") }
    #expect(warnings.count == 1 && warnings[0].hasPrefix("<4>"), "\(daemon.log)")

    // Changes are refused, reads still work, and the failed change was taken back.
    let refused = try reader.request("INCR mail")
    #expect(refused.count == 1 && refused[0].hasPrefix("ERR failed "), "\(refused)")
    #expect(try reader.request("GET mail")[0].hasPrefix("STATE mail count=\(acknowledged) "))
    #expect(try reader.request("PING") == ["OK pong"])

    // Room again: the repair (retried each second) lets changes through.
    #expect(try run("/usr/bin/mount", ["-o", "remount,size=4m", state]).status == 0)
    #expect(try waitUntil(timeout: 15) { try reader.request("INCR mail").last == "OK" })
    #expect(try reader.request("GET mail")[0].hasPrefix("STATE mail count=\(acknowledged + 1) "))
    try expectHealthy(daemon, peakMiB: 32, "a full disk during writes")

    // Every acknowledged change, and nothing else, is there after a crash.
    daemon.crash()
    let restarted = try DaemonProcess(folder: folder)
    #expect(try count("mail", restarted) == acknowledged + 1)
    restarted.stop()
  }
  /// The free bytes of the filesystem holding `path`.
  static func freeBytes(_ path: String) throws -> Int {
    try (FileManager.default.attributesOfFileSystem(forPath: path)[.systemFreeSize] as? NSNumber)?.intValue ?? -1
  }

  /// A daemon that ran on a nearly full disk and crashed there starts again: its snapshot (2.7
  /// MB with a full id table) cannot be written beside the old one, so it serves from the
  /// files as loaded, appending to the journal, says why it did not compact, and compacts
  /// once there is room.
  @Test func aDaemonThatCrashedOnAFullDiskStartsThereWithEverythingItAcknowledged() throws {
    let (folder, state) = try Self.stateOnTmpfs(size: "16m")
    defer { Self.unmount(state) }

    // A full id table: 65,536 writes, each with an id of its own.
    let first = try DaemonProcess(folder: folder)
    let writer = try first.client()
    let ids = 65_536
    for batch in stride(from: 0, to: ids, by: 1024) {
      var lines = ""
      for i in batch..<batch + 1024 { lines += "INCR mail id=desk:\(i)\n" }
      try writer.send(lines)
      for _ in 0..<1024 { #expect(try writer.readReply().last == "OK") }
    }
    first.crash()
    #expect(try SaveFailureTests.size(first.stateFile("snapshot")) > 2_000_000)

    // About 300 KB left: far from room for a snapshot beside the old one.
    let filler = state + "/filler"
    let fill = try run("/usr/bin/fallocate", ["-l", String(try Self.freeBytes(state) - 300_000), filler])
    try #require(fill.status == 0, "\(fill.stderr)")
    let notify = try DatagramListener(path: folder.file("notify.sock"))
    let daemon = try DaemonProcess(folder: folder, environment: ["NOTIFY_SOCKET": notify.path])
    // `systemctl status` says why the state folder is not compacted.
    let ready = try notify.next { $0.contains("READY=1") }
    let status = ready.split(separator: "\n").first { $0.hasPrefix("STATUS=") }.map(String.init) ?? ""
    #expect(status.hasPrefix("STATUS=1 channel, 0 clients, 0 watchers; not compacted: Failed to "), "\(ready)")
    #expect(status.hasSuffix("No space left on device"), "\(status)")
    let client = try daemon.client()
    #expect(try count("mail", daemon) == ids)
    #expect(try client.request("INCR mail id=desk:7").last == "OK repeated", "the id table was loaded")
    #expect(try client.request("INCR mail id=desk:new").last == "OK")
    #expect(try client.request("INCR other").last == "OK")
    let said = daemon.log.split(separator: "\n").filter { $0.contains("Cannot write a fresh snapshot at start") }
    #expect(said.count == 1 && said[0].hasPrefix("<4>"), "\(daemon.log)")
    #expect(said.first?.contains("No space left on device") == true)

    // A crash there too keeps everything acknowledged since.
    daemon.crash()
    let again = try DaemonProcess(folder: folder)
    #expect(try count("mail", again) == ids + 1 && count("other", again) == 1)

    // Room again: the compaction owed is made, and the journal starts afresh.
    try FileManager.default.removeItem(atPath: filler)
    #expect(waitUntil(timeout: 15) { again.log.contains("Compacted the state folder") }, "\(again.log)")
    #expect(try SaveFailureTests.size(again.stateFile("journal")) < 2 << 20)
    #expect(try again.client().request("INCR other").last == "OK")
    again.crash()
    let last = try DaemonProcess(folder: folder)
    #expect(try count("mail", last) == ids + 1 && count("other", last) == 2)
    #expect(try last.client().request("INCR mail id=desk:new").last == "OK repeated")
    last.stop()
  }
}
