import Foundation
import Testing

/// With `sync = always` nothing a client can observe leaves before its change is on disk, and
/// every storage failure, wherever it happens, enters the one failure policy. strace shows the
/// order of the daemon's system calls and injects the failures.
@Suite struct DurabilityTests {
  /// The error lines (`<3>`) of a log that contain `text`.
  static func errorLines(_ log: String, containing text: String) -> [Substring] {
    log.split(separator: "\n").filter { $0.hasPrefix("<3>") && $0.contains(text) }
  }

  @Test func noReplyOrEventLeavesBeforeItsTurnsFlush() throws {
    let folder = try TemporaryFolder()
    let trace = folder.file("trace")
    let daemon = try DaemonProcess(
      folder: folder,
      wrapper: SyscallTrace.wrapper(
        output: trace,
        calls: ["read", "recvfrom", "write", "pwrite64", "sendto", "sendmsg", "fdatasync", "epoll_ctl"]))
    let fast = try daemon.client()
    _ = try fast.request("WATCH")
    // A watcher that reads nothing until half the changes are made, then reads on its own
    // thread: its socket fills up, so its events wait for EPOLLOUT while later turns commit.
    let socket = daemon.socket
    let watching = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    Thread {
      let slow = try? RawClient(path: socket)
      _ = try? slow?.request("WATCH")
      watching.signal()
      go.wait()
      // Slowly, so that its socket stays nearly full and EPOLLOUT keeps firing amid turns.
      var lines = 0
      while (try? slow?.readLine(timeout: 5)) != nil {
        lines += 1
        if lines % 16 == 0 { usleep(100) }
      }
    }.start()
    watching.wait()
    let writer = try daemon.client()
    let reader = try daemon.client()
    for round in 0..<400 {
      if round == 200 { go.signal() }
      try writer.send(String(repeating: "INCR mail\nINCR chat\n", count: 25))
      for _ in 0..<50 { _ = try writer.readReply() }
      #expect(try field(reader.request("GET mail")[0], "count") == String(25 * (round + 1)))
      for _ in 0..<50 { #expect(try fast.readLine()?.hasPrefix("EVENT ") == true) }
    }
    let tracee = try SyscallTrace.tracee(of: daemon.pid)
    kill(tracee, SIGTERM)
    #expect(daemon.exitStatus() == 0)

    // Replay the trace. Changes are unsaved from the read that brings an INCR until an
    // fdatasync of the journal returns 0, and so is the journal from a write to it until then:
    // no socket may be written to meanwhile.
    let journal = "</" + daemon.stateFolder.dropFirst() + "/journal>"
    var unsaved = false
    var sends = 0
    var flushes = 0
    var journalWrites = 0
    var early: [Substring] = []
    for call in try SyscallTrace.calls(in: trace) {
      let onSocket = call.contains("<socket:")
      if (call.hasPrefix("read(") || call.hasPrefix("recvfrom(")) && onSocket && call.contains("INCR ") {
        unsaved = true
      } else if call.hasPrefix("pwrite64(") && call.contains(journal) {
        unsaved = true
        journalWrites += 1
      } else if call.hasPrefix("fdatasync(") && call.contains(journal) && call.hasSuffix("= 0") {
        unsaved = false
        flushes += 1
      } else if call.hasPrefix("sendto(") || call.hasPrefix("sendmsg(") || (call.hasPrefix("write(") && onSocket) {
        sends += 1
        if unsaved { early.append(call.prefix(120)) }
      }
    }
    #expect(early.isEmpty, "sent before the journal was flushed: \(early.prefix(3))")
    #expect(flushes >= 400, "one flush per turn with changes")
    #expect(journalWrites >= 400, "one write per turn with changes, at the journal's end")
    #expect(sends > 100)
    let armedOutput = try SyscallTrace.calls(in: trace).filter { $0.hasPrefix("epoll_ctl(") && $0.contains("EPOLLOUT") }
    #expect(!armedOutput.isEmpty, "the slow watcher waited for EPOLLOUT")
  }

  @Test func aFailedEverysecFlushRefusesChangesKeepsReadsAndIsLoggedOnce() throws {
    // Only calls on the journal and the state folder are traced (strace counts calls per
    // thread, and the deferred flush runs on a thread of its own): every flush of the journal
    // fails (only the deferred everysec flush flushes it under that name; start-up and
    // compactions flush it as journal.tmp), and so does every folder flush after start-up's
    // two, so each repair (a compaction) fails too.
    let folder = try TemporaryFolder()
    let state = folder.file("state")
    let daemon = try DaemonProcess(
      folder: folder, config: "[daemon]\nsync = everysec\n",
      wrapper: SyscallTrace.wrapper(
        calls: ["fdatasync", "fsync"], inject: ["fdatasync:error=EIO", "fsync:error=EIO:when=3+"],
        paths: [state + "/journal", state]))
    let client = try daemon.client()
    #expect(try client.request("INCR mail").last == "OK")
    #expect(waitUntil { !Self.errorLines(daemon.log, containing: "Refusing changes").isEmpty }, "\(daemon.log)")
    let refused = try client.request("INCR mail")
    #expect(
      refused == [
        "ERR failed Changes are refused until the state can be saved again: Failed to flush "
          + "'\(daemon.stateFile("journal"))' to disk: Input/output error"
      ])
    #expect(try field(client.request("GET mail")[0], "count") == "1")
    #expect(try client.request("SET other 3")[0].hasPrefix("ERR failed "))
    #expect(Self.errorLines(daemon.log, containing: "flush").count == 1, "\(daemon.log)")

    // The acknowledged change was written (not flushed): a crash of badged keeps it.
    kill(try SyscallTrace.tracee(of: daemon.pid), SIGKILL)
    _ = daemon.exitStatus()
    let restarted = try DaemonProcess(folder: daemon.folder)
    #expect(try field(restarted.client().request("GET mail")[0], "count") == "1")
  }

  @Test func aCompactionThatFailsAfterTheJournalsRenameRefusesChanges() throws {
    // Start-up flushes the folder twice (after each rename); a compaction flushes it after the
    // snapshot's rename (3) and after the journal's (4): from the 4th on, folder flushes fail.
    let daemon = try DaemonProcess(
      config: "[daemon]\nsync = never\n",
      wrapper: SyscallTrace.wrapper(calls: ["fsync"], inject: ["fsync:error=EIO:when=4+"]))
    let name = "a-channel-with-a-long-name-so-that-the-journal-grows-quickly-x"
    let writer = try daemon.client()
    var acknowledged = 0
    var refused = 0
    // Over 4 MiB of journal: a compaction starts, and fails after it replaced the journal.
    while refused == 0 && acknowledged < 200_000 {
      try writer.send(String(repeating: "INCR \(name)\n", count: 2000))
      for _ in 0..<2000 {
        let reply = try writer.readReply()
        if reply.last == "OK" {
          #expect(refused == 0, "a change acknowledged after one was refused")
          acknowledged += 1
        } else {
          #expect(
            reply[0].hasPrefix(
              "ERR failed Changes are refused until the state can be saved again: Failed to flush folder "))
          refused += 1
        }
      }
    }
    #expect(refused > 0 && acknowledged > 1000, "\(acknowledged) acknowledged, \(refused) refused")
    #expect(try field(writer.request("GET \(name)")[0], "count") == String(acknowledged))
    #expect(try writer.request("INCR other")[0].hasPrefix("ERR failed "))
    #expect(Self.errorLines(daemon.log, containing: "Failed to flush folder").count == 1, "\(daemon.log)")

    // Nothing was appended to the unlinked journal: after a crash, the snapshot the
    // compaction wrote holds every acknowledged change.
    kill(try SyscallTrace.tracee(of: daemon.pid), SIGKILL)
    _ = daemon.exitStatus()
    let restarted = try DaemonProcess(folder: daemon.folder)
    #expect(try field(restarted.client().request("GET \(name)")[0], "count") == String(acknowledged))
  }
}
