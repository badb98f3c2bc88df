import Foundation
import Testing

/// A flood of changes over many channels, each with a hook that takes a while: the hooks run
/// at most `hooks_max_running` at once, in all, and the rest wait their turn coalesced, so
/// that every channel's last change still runs its hook, and a client that connects during the
/// flood is answered.
@Suite struct HookFloodTests {
  /// A hook that counts the runs under way at once (a counter under flock(1), in `folder`),
  /// keeps the highest count, and appends `channel count` to `runs` as it ends. The first runs
  /// wait (up to 30 s, far longer than a loaded machine takes to start the others) until as many
  /// as the file `limit` says are under way, so that the bound is reached, not only never passed.
  static func countingHook(in folder: TemporaryFolder, limit: Int) throws -> String {
    _ = try folder.write("limit", "\(limit)\n")
    _ = try folder.write("count", "0\n")
    _ = try folder.write("max", "0\n")
    _ = try folder.write("runs", "")
    let script = try folder.write(
      "hook",
      """
      #!/bin/sh
      cd "$1" || exit 1
      exec 9>>lock
      flock 9; read n <count; n=$((n + 1)); echo $n >count; read most <max; [ $n -gt $most ] && echo $n >max; flock -u 9
      i=0
      while [ $i -lt 600 ]; do
        flock 9; read most <max; read limit <limit; flock -u 9
        [ "$most" -ge "$limit" ] && break
        sleep 0.05; i=$((i + 1))
      done
      sleep 0.02
      flock 9; read n <count; echo $((n - 1)) >count; echo "$BADGED_CHANNEL $BADGED_COUNT" >>runs; flock -u 9
      """)
    #expect(chmod(script, 0o755) == 0)
    return "\(script) \(folder.path)"
  }

  @Test func aFloodRunsAtMostHooksMaxRunningAtOnceAndEveryChannelsLastChange() throws {
    let folder = try TemporaryFolder()
    let limit = 16
    let hook = try Self.countingHook(in: folder, limit: limit)
    let daemon = try DaemonProcess(
      folder: folder,
      config: """
        [daemon]
        sync = never
        hook_interval_ms = 0
        hook_timeout_ms = 600000
        hooks_max_running = \(limit)
        on_increase = \(hook)
        """)
    let writer = try daemon.client()
    let flood = (0..<10_000).map { "INCR c\($0 % 1000)\n" }.joined()
    let sending = sendInBackground(Array(flood.utf8), to: writer.fd)
    for _ in 0..<10_000 { _ = try writer.readReply() }
    sending.wait()

    // While the hooks of the flood run (a thousand runs, sixteen at a time), a client that
    // connects now is answered: the loop never waits for a hook.
    func runs() -> [[Substring]] {
      ((try? String(contentsOfFile: folder.file("runs"), encoding: .utf8)) ?? "").split(separator: "\n").map {
        $0.split(separator: " ")
      }
    }
    var pings: [Double] = []
    while runs().count < 500 {
      let start = Date()
      #expect(try daemon.client().request("PING") == ["OK pong"])
      pings.append(Date().timeIntervalSince(start) * 1000)
      usleep(20_000)
    }
    #expect(!pings.isEmpty && runs().count < 1000, "PINGs were answered during the flood")

    let lastChanges = { Set(runs().filter { $0.last == "10" }.map { $0[0] }) }
    #expect(
      waitUntil(timeout: 300) { lastChanges().count == 1000 }, "\(lastChanges().count) channels ran their last change")
    #expect(waitUntil { (try? String(contentsOfFile: folder.file("count"), encoding: .utf8)) == "0\n" })
    let most = try String(contentsOfFile: folder.file("max"), encoding: .utf8)
    #expect(most == "\(limit)\n", "the most hooks under way at once, counted by the hooks")
    pings.sort()
    print(
      "hook flood: \(runs().count) runs, at most \(most.dropLast()) at once; PING during it (debug build, ms): "
        + "median \(String(format: "%.2f", pings[pings.count / 2])), max \(String(format: "%.2f", pings.last!))")
    #expect(daemon.stop() == 0)
  }

  /// A reload sets a new bound for the runs that start next; a bad value is refused with its
  /// place and the bound in force stays.
  @Test func aReloadAppliesANewBound() throws {
    let folder = try TemporaryFolder()
    let hook = try Self.countingHook(in: folder, limit: 2)
    let config = { (limit: String) in
      "[daemon]\nhook_interval_ms = 0\nhooks_max_running = \(limit)\non_increase = \(hook)\n"
    }
    let daemon = try DaemonProcess(folder: folder, config: config("2"))
    let client = try daemon.client()
    func flood(_ prefix: String) throws -> String {
      try client.send((0..<10).map { "INCR \(prefix)\($0)\n" }.joined())
      for _ in 0..<10 { _ = try client.readReply() }
      #expect(
        waitUntil(timeout: 120) {
          (try? String(contentsOfFile: folder.file("runs"), encoding: .utf8))?.split(separator: "\n").count == 10
        })
      let most = try String(contentsOfFile: folder.file("max"), encoding: .utf8)
      _ = try folder.write("max", "0\n")
      _ = try folder.write("runs", "")
      return most
    }
    #expect(try flood("a") == "2\n")
    _ = try folder.write("badged.conf", config("0"))
    #expect(
      try client.request("RELOAD") == [
        "ERR failed \(folder.file("badged.conf")):3: Invalid value '0' for hooks_max_running: expected a number "
          + "from 1 to 1024"
      ])
    #expect(try flood("b") == "2\n", "the bound in force stays")
    _ = try folder.write("badged.conf", config("5"))
    #expect(try client.request("RELOAD") == ["OK reloaded"])
    _ = try folder.write("limit", "5\n")
    #expect(try flood("c") == "5\n")
  }
}
