import Foundation
import Testing

/// When the journal cannot be written, nothing unsaved is acknowledged.
@Suite struct SaveFailureTests {
  @Test func aFailedWriteClosesTheRequesterRefusesChangesAndRecovers() throws {
    // A file size limit makes the journal's writes fail (EFBIG) after a few KiB.
    let daemon = try DaemonProcess(wrapper: ["/usr/bin/prlimit", "--fsize=4096", "--"])
    let writer = try daemon.client()
    var acknowledged = 0
    var sent = 0
    while sent < 10_000 {
      sent += 1
      try writer.send("INCR mail\n")
      guard let reply = try? writer.readReply(timeout: 5), reply.last == "OK" else { break }
      acknowledged += 1
    }
    #expect(sent < 10_000, "the journal filled up")
    #expect(acknowledged > 10)
    #expect(daemon.log.contains("File too large"), "\(daemon.log)")
    #expect(daemon.log.contains("refusing changes"))

    // Until the state is saved again, changes are refused and reads still work.
    let other = try daemon.client()
    let refused = try other.request("INCR mail")
    if refused[0].hasPrefix("ERR ") {
      #expect(refused[0].hasPrefix("ERR failed "))
    }
    #expect(try other.request("GET mail")[0].hasPrefix("STATE mail "))

    // A compaction (a small snapshot, a new journal) repairs it within a few seconds.
    #expect(try waitUntil(timeout: 10) { try daemon.client().request("INCR ok").last == "OK" })
    #expect(daemon.log.contains("accepting changes"))

    // Whatever happened, every acknowledged change is there after a crash.
    daemon.crash()
    let restarted = try DaemonProcess(folder: daemon.folder)
    let recovered = Int(try field(restarted.client().request("GET mail")[0], "count") ?? "") ?? -1
    #expect(recovered >= acknowledged)
    #expect(recovered <= sent + 1)
  }
}
