import Foundation
import Testing

/// Feedback hooks run by the real daemon: their environment, when they run and when not, and
/// that they never slow the daemon down.
@Suite struct HookTests {
  /// A hook command that appends its `BADGED_*` values to `file`, one line per run.
  static func recorder(_ file: String) -> String {
    #"sh -c 'echo "$BADGED_EVENT $BADGED_CHANNEL $BADGED_COUNT $BADGED_PREVIOUS $BADGED_DELTA $BADGED_LABEL $HOOK_TEST" >> "$0"' "#
      + file
  }

  /// The lines the hooks wrote, once there are `count` of them (waiting up to 10 s).
  static func lines(_ file: String, count: Int) throws -> [String] {
    var lines: [String] = []
    _ = waitUntil {
      lines = ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
      return lines.count >= count
    }
    return lines
  }

  @Test func hooksRunWithTheRightEnvironment() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("hooks.txt")
    let daemon = try DaemonProcess(
      folder: folder,
      config: """
        [daemon]
        hook_interval_ms = 0
        on_increase = \(Self.recorder(file))
        on_decrease = \(Self.recorder(file))
        on_zero = \(Self.recorder(file))
        [channel blip]
        pulse_ms = 100
        on_pulse_end = \(Self.recorder(file))
        [channel quiet]
        on_increase =
        """,
      environment: ["HOOK_TEST": "inherited"])
    let client = try daemon.client()
    _ = try client.request("INCR mail 3")
    #expect(try Self.lines(file, count: 1) == ["increase mail 3 0 3 3 inherited"])
    _ = try client.request("DECR mail 3")
    let decrease = try Self.lines(file, count: 3)
    // Both start at once (hook_interval_ms = 0) and run side by side: either may write first.
    #expect(Array(decrease.dropFirst()).sorted() == ["decrease mail 0 3 -3  inherited", "zero mail 0 3 -3  inherited"])
    _ = try client.request("INCR quiet")  // its section turns the hook off
    _ = try client.request("INCR blip")
    let blip = try Self.lines(file, count: 5)
    #expect(Array(blip.dropFirst(3)) == ["increase blip 1 0 1 1 inherited", "pulse_end blip 1 1 0 1 inherited"])
  }

  @Test func noHooksUnderDNDForMutedChannelsOrForReplayedState() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("hooks.txt")
    let config = """
      [daemon]
      hook_interval_ms = 0
      on_increase = \(Self.recorder(file))
      [channel pager]
      dnd = ignore
      [channel loud]
      muted = yes
      """
    let daemon = try DaemonProcess(folder: folder, config: config)
    let client = try daemon.client()
    _ = try client.request("DND on")
    _ = try client.request("INCR mail")  // silenced: no hook
    _ = try client.request("INCR loud")  // muted: no hook
    _ = try client.request("INCR pager")  // ignores DND: runs
    // A hook starts at the end of its request's turn, before the reply is sent: one for mail
    // or loud would have started before the pager's (and the file's last contents, below,
    // show that none ran).
    #expect(try Self.lines(file, count: 1) == ["increase pager 1 0 1 1 "])
    _ = try client.request("DND off")
    #expect(daemon.stop() == 0)
    let again = try DaemonProcess(folder: folder, config: config + "\n[daemon]\nhooks_when_muted = yes\n")
    _ = try again.client().request("INCR loud")
    #expect(
      try Self.lines(file, count: 2) == ["increase pager 1 0 1 1 ", "increase loud 2 1 1 2 "],
      "the state loaded at start ran nothing; hooks_when_muted lets a muted channel run its hooks")
  }

  @Test func aSlowHookNeverDelaysReplies() throws {
    let folder = try TemporaryFolder()
    let started = folder.file("started")
    let daemon = try DaemonProcess(
      folder: folder,
      config: "[daemon]\nhook_timeout_ms = 60000\non_increase = sh -c 'touch \"$0\"; exec sleep 10' \(started)\n")
    let client = try daemon.client()
    _ = try client.request("INCR mail")
    #expect(waitUntil { FileManager.default.fileExists(atPath: started) })
    // 200 round trips, one after the other, while the hook sleeps (figures for BENCHMARKS.md;
    // only that every reply arrives while the hook still runs is asserted).
    var roundTrips: [Double] = []
    for _ in 0..<200 {
      let before = Date()
      #expect(try client.request("PING") == ["OK pong"])
      roundTrips.append(Date().timeIntervalSince(before) * 1000)
    }
    let children = try Self.children(of: daemon.pid)
    #expect(children.count == 1, "the hook still runs after the replies arrived: \(children)")
    roundTrips.sort()
    print(
      "PING round trips while a 10 s hook runs (ms): median \(String(format: "%.3f", roundTrips[100])), "
        + "max \(String(format: "%.3f", roundTrips[199]))")
    #expect(try client.request("INCR mail")[0].hasPrefix("STATE mail count=2 "))
    #expect(daemon.stop() == 0)
  }

  @Test func aTimedOutHookIsKilledAndLoggedOnce() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("runs.txt")
    let daemon = try DaemonProcess(
      folder: folder,
      config:
        "[daemon]\nhook_interval_ms = 0\nhook_timeout_ms = 100\non_increase = sh -c 'echo run >> \"$0\"; exec "
        + "sleep 30' \(file)\n"
    )
    let client = try daemon.client()
    for n in 1...2 {
      _ = try client.request("INCR mail")
      _ = try Self.lines(file, count: n)
      // The next run starts only once this one was killed and reaped.
      #expect(waitUntil { (try? Self.children(of: daemon.pid))?.isEmpty == true })
    }
    _ = try client.request("INCR mail")
    _ = try Self.lines(file, count: 3)
    #expect(waitUntil { daemon.log.contains("killed after running 100 ms") })
    #expect(daemon.log.components(separatedBy: "killed after running 100 ms").count - 1 == 1, "\(daemon.log)")
  }

  @Test func aFloodRunsTheHookABoundedNumberOfTimes() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("runs.txt")
    let daemon = try DaemonProcess(
      folder: folder,
      config: "[daemon]\nhook_interval_ms = 3000\non_increase = \(Self.recorder(file))\n")
    let client = try daemon.client()
    let start = Date()
    // 10,000 increases, pipelined, and every reply read.
    try client.send(String(repeating: "INCR mail\n", count: 10_000))
    for _ in 0..<10_000 { _ = try client.readReply() }
    let flood = Date().timeIntervalSince(start)
    // The first increase runs the hook at once; the other 9,999 arrive while it runs or within
    // hook_interval_ms of its start, so they coalesce into exactly one more run, 3 s after
    // the first, reporting the latest count and the count before the first coalesced change.
    let runs = try Self.lines(file, count: 2)
    #expect(
      runs == ["increase mail 1 0 1 1 ", "increase mail 10000 1 9999 99+ "],
      "the flood took \(String(format: "%.2f", flood)) s of the 3 s interval")
    // Nothing else was waiting: the next increase is the next run, with the count the last
    // run reported as its previous one.
    _ = try client.request("INCR mail")
    #expect(try Self.lines(file, count: 3).last == "increase mail 10001 10000 1 99+ ")
  }

  /// A failing hook is one warning, then at most one line per 10 s per command line with the
  /// count of the failures in between (`RepeatedWarnings`, whose timer reports a count once
  /// its hook stops failing): this test waits for that timer.
  @Test func aFailingHookIsLoggedOnceThenCountedEveryTenSeconds() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("runs.txt")
    let daemon = try DaemonProcess(
      folder: folder,
      config: """
        [daemon]
        hook_interval_ms = 0
        on_increase = sh -c 'echo run >> "$0"; exit 3' \(file)
        on_decrease = /nonexistent/hook
        """)
    let client = try daemon.client()
    for n in 1...3 {
      _ = try client.request("INCR mail")
      _ = try Self.lines(file, count: n)  // a run starts only after the one before was reaped
    }
    #expect(waitUntil { daemon.log.contains("it exited with status 3") })
    // A missing program fails as it starts, within the request.
    for _ in 1...2 { _ = try client.request("DECR mail") }
    #expect(daemon.log.components(separatedBy: "it exited with status 3").count - 1 == 1, "\(daemon.log)")
    #expect(
      daemon.log.components(
        separatedBy: "'/nonexistent/hook') failed: Failed to start '/nonexistent/hook': No such file or directory"
      ).count - 1 == 1, "\(daemon.log)")
    let counts = [
      "<4>Hook 'sh -c 'echo run >> \"$0\"; exit 3' \(file)' failed: 2 more like this in the last 10 s.",
      "<4>Hook '/nonexistent/hook' failed: 1 more like this in the last 10 s.",
    ]
    #expect(waitUntil(timeout: 20) { counts.allSatisfy { daemon.log.contains($0) } }, "\(daemon.log)")
    #expect(daemon.log.components(separatedBy: "failed").count - 1 == 4, "\(daemon.log)")
  }

  /// Where the daemon does not log to journald, a hook's output (standard output and error
  /// alike, on a pipe of its own) reaches the log line by line with the run in front, at most
  /// 32 lines a run and the others counted; none of it is written to the daemon's standard
  /// error as it is.
  @Test func aHooksOutputIsRelayedThroughTheLogWithinACap() throws {
    let daemon = try DaemonProcess(
      config: "[daemon]\non_increase = sh -c 'echo first; echo \"<3>an error\" >&2; seq 3 100'\n")
    _ = try daemon.client().request("INCR mail")
    #expect(waitUntil { daemon.log.contains("only the first 32 are logged.") })
    let lines = daemon.log.split(separator: "\n").map(String.init)
    let relayed = lines.filter { $0.contains("Hook on_increase of 'mail' (pid ") }
    let pid = relayed.first?.split(separator: "(pid ").last?.prefix { $0.isNumber } ?? ""
    let run = "Hook on_increase of 'mail' (pid \(pid))"
    #expect(
      relayed == ["<6>\(run): first", "<3>\(run): an error"] + (3...32).map { "<6>\(run): \($0)" }
        + ["<6>\(run) printed 68 more lines; only the first 32 are logged."])
    #expect(lines.filter { !$0.hasPrefix("<") }.isEmpty, "nothing but log lines: \(lines)")
  }

  @Test func hooksRunUnderTheServicesSeccompRules() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("hooks.txt")
    // seccomp-run installs the rules badged.service does, its system call list included
    // (HardeningTests), and kills a process that makes a call outside it: badged spawns a
    // hook, the hook runs a shell, and badged reaps it, all under them.
    let wrapper = [HardeningTests.seccompRun, "--allow", try ServiceUnit.writeAllowList(in: folder), "--kill"]
    let daemon = try DaemonProcess(
      folder: folder, config: "[daemon]\non_increase = \(Self.recorder(file))\n", wrapper: wrapper)
    _ = try daemon.client().request("INCR mail")
    #expect(try Self.lines(file, count: 1) == ["increase mail 1 0 1 1 "])
    #expect(waitUntil { (try? Self.children(of: daemon.pid))?.isEmpty == true }, "reaped")
    #expect(!daemon.log.contains("failed"), "\(daemon.log)")
  }

  /// The daemon's child processes (its running hooks).
  static func children(of pid: Int32) throws -> [String] {
    let text = try String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)
    return text.split(separator: " ").map(String.init)
  }
}
