import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The state folder on a small tmpfs that fills up while clients write: nothing unsaved is
/// acknowledged or kept, reads go on, and writing resumes once there is room again.
@Suite struct FullDiskTests {
  @Test func aFullDiskDuringWrites() throws {
    let folder = try TemporaryFolder()
    let state = folder.file("state")
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    let mounted = try run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", state])
    try #require(mounted.status == 0, "mounting a tmpfs needs root: \(mounted.stderr)")
    defer { _ = try? run("/usr/bin/umount", ["-l", state]) }

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
}
