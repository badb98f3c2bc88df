import Foundation
import Testing

/// badged under the seccomp rules badged.service installs, applied by the test tool
/// `seccomp-run` (the same rules systemd installs, so this runs without systemd): the
/// unit's `SystemCallFilter=` lines expanded by `systemd-analyze syscall-filter`, and every
/// other seccomp or prctl option of the unit.
@Suite struct HardeningTests {
  static var seccompRun: String { Binaries.folder.appendingPathComponent("seccomp-run").path }

  /// The unit's options that seccomp-run applies. An option added to the unit must be added to
  /// the tool (and here) too, or this test fails.
  static let appliedOptions: [String: String] = [
    "NoNewPrivileges": "yes", "MemoryDenyWriteExecute": "yes", "RestrictAddressFamilies": "AF_UNIX",
    "RestrictNamespaces": "yes", "RestrictRealtime": "yes", "RestrictSUIDSGID": "yes",
    "LockPersonality": "yes", "SystemCallErrorNumber": "EPERM", "SystemCallArchitectures": "native",
  ]
  /// Options of the unit that are not seccomp rules: the service's type, its start and stop,
  /// and settings systemd applies without a filter.
  static let otherOptions: Set<String> = [
    "Description", "Documentation", "Requires", "After", "Type", "ExecStart", "ExecReload", "Sockets",
    "Restart", "WatchdogSec", "KeyringMode", "AmbientCapabilities", "UMask", "WantedBy", "Also",
  ]

  /// A state line without `pulse=` and `seq=`: sequence numbers depend on how the clients'
  /// requests interleaved.
  static func withoutOrder(_ line: String) -> String {
    line.split(separator: " ").filter { !$0.hasPrefix("pulse=") && !$0.hasPrefix("seq=") }.joined(separator: " ")
  }

  @Test func theToolAppliesEverySeccompOptionOfTheUnit() throws {
    var seen: [String: String] = [:]
    for (key, value) in try ServiceUnit.settings() where key != "SystemCallFilter" && !Self.otherOptions.contains(key) {
      seen[key] = value
    }
    #expect(seen == Self.appliedOptions)
  }

  @Test func theUnitsAllowListComesFromSystemdsTables() throws {
    let allowed = try ServiceUnit.allowedSystemCalls()
    // What badged needs is in, what the unit takes away is out.
    for call in [
      "epoll_wait", "accept4", "fdatasync", "rename", "flock", "timerfd_create", "signalfd4", "execve", "clone",
    ] {
      #expect(allowed.contains(call), "\(call)")
    }
    for call in ["setpriority", "setrlimit", "mount", "reboot", "ptrace", "setuid", "chown", "settimeofday"] {
      #expect(!allowed.contains(call), "\(call)")
    }
  }

  @Test func theRulesRefuseWhatTheyShould() throws {
    let folder = try TemporaryFolder()
    let result = try run(Self.seccompRun, ["--allow", try ServiceUnit.writeAllowList(in: folder), "--check"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("SystemCallFilter: a call outside the list fails with EPERM"))
    #expect(result.stdout.contains("MemoryDenyWriteExecute: W+X memory is refused"))
  }

  @Test func aCallOutsideTheListKillsTheProgramWithKill() throws {
    // The --kill mode the daemon runs under below does catch a refused call: `nice` calls
    // setpriority, which the unit's list leaves out.
    let folder = try TemporaryFolder()
    let allow = try ServiceUnit.writeAllowList(in: folder)
    let result = try run(Self.seccompRun, ["--allow", allow, "--kill", "/usr/bin/nice", "-n", "0", "/bin/true"])
    #expect(result.status == 128 + SIGSYS)
  }

  /// sd-bus, which badged uses for the session bus, works under the rules: busctl (an sd-bus
  /// client) asks a private dbus-daemon for its id, with a refused call killing it.
  @Test func sdBusTalksToTheSessionBusUnderThem() throws {
    let folder = try TemporaryFolder()
    let allow = try ServiceUnit.writeAllowList(in: folder)
    let result = try run(
      "/usr/bin/dbus-run-session",
      [
        "--", Self.seccompRun, "--allow", allow, "--kill", "/usr/bin/busctl", "--user", "call",
        "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId",
      ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("s \""))
  }

  /// Feedback hooks run under the rules too (a child inherits the filter): the daemon spawns
  /// `sh`, which writes what it was told, with a refused call killing either.
  @Test func hooksRunUnderThem() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("hooks.txt")
    let wrapper = [Self.seccompRun, "--allow", try ServiceUnit.writeAllowList(in: folder), "--kill"]
    let daemon = try DaemonProcess(
      folder: folder,
      config: "[daemon]\nhook_interval_ms = 0\non_increase = \(HookTests.recorder(file))\n",
      wrapper: wrapper, environment: ["HOOK_TEST": "filtered"])
    _ = try daemon.client().request("INCR mail 2")
    #expect(try HookTests.lines(file, count: 1) == ["increase mail 2 0 2 2 filtered"])
    #expect(daemon.stop() == 0, "\(daemon.log)")
  }

  /// A run of the daemon's work under the rules, with a refused call killing it (`--kill`):
  /// start, notify and watchdog, clients and a watcher, every kind of change, a reload, a
  /// stop that compacts the state, and a second start that loads it.
  @Test func badgedServesReloadsNotifiesStopsAndRestartsUnderThem() throws {
    try Binaries.check()
    let folder = try TemporaryFolder()
    let wrapper = [Self.seccompRun, "--allow", try ServiceUnit.writeAllowList(in: folder), "--kill"]
    let notify = try DatagramListener(path: folder.file("notify.sock"))
    let environment = ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000"]
    _ = try folder.write("badged.conf", "[daemon]\nmax_label = 9\n")
    let arguments = ["--config", folder.file("badged.conf"), "--log-level", "debug"]

    let daemon = try DaemonProcess(folder: folder, arguments: arguments, wrapper: wrapper, environment: environment)
    _ = try notify.next { $0.contains("READY=1") }
    let watcher = try daemon.client()
    #expect(
      try watcher.request("WATCH mail") == [
        "STATE * dnd=0 left=0",
        "STATE mail count=0 label= dot=0 pulse=0 muted=0 seq=0 badge=count dnd=off unseen=0 total=0", "OK watching",
      ])
    let clients = try (0..<4).map { _ in try daemon.client() }
    for (i, client) in clients.enumerated() {
      try client.send(String(repeating: "INCR mail\nINCR chat.\(i) 2\n", count: 50))
    }
    for client in clients {
      for _ in 0..<100 { _ = try client.readReply() }
    }
    let client = clients[0]
    #expect(try field(client.request("GET mail")[0], "count") == "200")
    #expect(try field(client.request("GET mail")[0], "label") == "9+")
    #expect(try client.request("MUTE chat.1").last == "OK")
    #expect(try client.request("CONFIGURE chat.2 style=dot").last == "OK")
    #expect(try client.request("DECR chat.3 2").last == "OK")
    _ = try folder.write("badged.conf", "[daemon]\nmax_label = 999\n")
    #expect(try client.request("RELOAD") == ["OK reloaded"])
    #expect(try field(client.request("GET mail")[0], "label") == "200")
    // The watcher's last event, before its own round trip, is the reload's new label.
    try watcher.send("PING\n")
    var lines: [String] = []
    while let line = try watcher.readLine(), line != "OK pong" { lines.append(line) }
    #expect(
      lines.last.map(Self.withoutOrder)
        == "EVENT mail count=200 label=200 dot=0 muted=0 badge=count dnd=off unseen=200 total=200")
    _ = try notify.next { $0.contains("WATCHDOG=1") }
    #expect(daemon.stop() == 0, "\(daemon.log)")

    let again = try DaemonProcess(folder: folder, arguments: arguments, wrapper: wrapper, environment: environment)
    let reader = try again.client()
    let listed = try reader.request("LIST").map(Self.withoutOrder)
    #expect(
      listed == [
        "STATE chat.0 count=100 label=100 dot=0 muted=0 badge=count dnd=off unseen=100 total=100",
        "STATE chat.1 count=100 label=100 dot=0 muted=1 badge=count dnd=off unseen=100 total=100",
        "STATE chat.2 count=100 label=• dot=1 muted=0 badge=count dnd=off unseen=100 total=100",
        "STATE chat.3 count=98 label=98 dot=0 muted=0 badge=count dnd=off unseen=98 total=100",
        "STATE mail count=200 label=200 dot=0 muted=0 badge=count dnd=off unseen=200 total=200",
        "OK",
      ])
    #expect(again.stop() == 0, "\(again.log)")
  }
}

/// badged-sources under badged's seccomp rules, which are its unit's system call filter with
/// less besides (Unix sockets only, no writable executable memory): inotify, directory
/// listings, renames that never replace, its threads and its commands all pass, with a
/// refused call killing it.
@Suite struct SourcesHardeningTests {
  @Test func badgedSourcesCountsMarksReadAndRunsACommandUnderTheRules() throws {
    let folder = try TemporaryFolder()
    var maildir = try TestMaildir(in: folder)
    try maildir.deliver()
    try maildir.place(flags: "")
    try maildir.place(flags: "S")
    let config = try folder.write(
      "badged.conf",
      "[source.inbox]\nkind = maildir\npath = \(maildir.root)\non_clear = mark-read\n\n"
        + "[source.command]\nkind = exec\ncommand = sh -c 'echo 7'\n")
    let daemon = try DaemonProcess(folder: folder)
    let (watcher, _) = try SourcesStage.watch(daemon)
    let wrapper = [HardeningTests.seccompRun, "--allow", try ServiceUnit.writeAllowList(in: folder), "--kill"]
    let sources = try SourcesProcess(folder: folder, config: config, socket: daemon.socket, wrapper: wrapper)
    let context = { "badged-sources:\n\(sources.log)\nbadged:\n\(daemon.log)" }

    _ = try SourcesStage.awaitCount(2, on: watcher, context)
    try maildir.deliver()
    let shown = try SourcesStage.awaitCount(3, on: watcher, context)
    // A click marks read what it showed: three renames in cur/, which come back as events.
    _ = try daemon.client().request("CLEAR inbox upto=\(shown)")
    _ = try SourcesStage.awaitCount(0, on: watcher, context)
    #expect(try maildir.unread() == 0)
    let client = try daemon.client()
    #expect(try waitUntil { try field(client.request("GET command")[0], "count") == "7" }, "\(context())")
    #expect(sources.stop() == 0, "\(context())")
  }
}

/// The bus bridges under the unit's seccomp rules: sd-bus's calls are all in the allow list.
@Suite struct BusBridgeHardeningTests {
  @Test func theBridgesWorkUnderTheUnitsSeccompRules() throws {
    let folder = try TemporaryFolder()
    let bus = try SessionBus(folder: folder)
    let notificationDaemon = try BusPeer(bus: bus)
    #expect(try notificationDaemon.send("notifications") == "own 1")
    let wrapper = [HardeningTests.seccompRun, "--allow", try ServiceUnit.writeAllowList(in: folder), "--kill"]
    let daemon = try DaemonProcess(
      folder: folder, config: "[notifications]\ncount = yes\n", arguments: ["--log-level", "debug"], wrapper: wrapper,
      environment: bus.environment)
    try bus.waitForOwner(of: "com.canonical.Unity", pid: daemon.pid)
    #expect(waitUntil { daemon.log.contains("Counting notifications as a monitor of the session bus.") })
    let watcher = try daemon.client()
    #expect(try watcher.request("WATCH") == ["STATE * dnd=0 left=0", "OK watching"])
    let app = try BusPeer(bus: bus)
    try app.send("update / application://chat.desktop count=x:2 count-visible=b:true")
    #expect(try watcher.nextEvent() == "app:chat count=2")
    #expect(try run("notify-send", ["--app-name=mail", "hi"], environment: bus.environment).status == 0)
    #expect(try watcher.nextEvent() == "notify:mail count=1")
    bus.stop()
    #expect(waitUntil { daemon.log.contains("Lost the session bus for the LauncherEntry bridge") })
    #expect(daemon.stop() == 0, "\(daemon.log)")
  }
}
