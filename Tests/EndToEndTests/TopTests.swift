import Foundation
import Testing

/// `badgectl top` in tmux against the real daemon: what a person does with it, checked on the
/// screen and in the daemon.
@Suite(.serialized) struct TopTests {
  /// The count the daemon has for `channel`.
  func count(_ channel: String, _ daemon: DaemonProcess) throws -> Int {
    try currentCount(channel, socket: daemon.socket)
  }

  /// The wheel's selected row showing `value`: a mark, then the value right-aligned.
  func wheelRow(_ value: Int) -> String {
    "›" + String(repeating: " ", count: 13 - String(value).count) + String(value)
  }

  @Test func selectStepPickAndFollowChangesFromElsewhere() throws {
    let daemon = try DaemonProcess(config: "[daemon]\npulse_ms = 0\n")
    try badgectl(["set", "ci", "2"], socket: daemon.socket)
    try badgectl(["set", "mail", "0"], socket: daemon.socket)
    try badgectl(["configure", "mail", "muted=no"], socket: daemon.socket)  // listed at 0
    try badgectl(["set", "news", "7"], socket: daemon.socket)
    let pane = try TopPane(daemon: daemon)
    pane.wait("the bar shows every channel") { $0.hasPrefix("▐ ci  2  ▌  mail    news  7") }

    // By key: → selects mail; its page slides in and the capsule moves.
    try pane.keys("Right")
    pane.wait("mail's page") { _ in pane.row(0).hasPrefix("  ci  2   ▐ mail ▌") && pane.row(3) == "    mail" }

    // - at 0 does nothing: the + after it reaches the daemon first, and mail ends at 1.
    try pane.keys("-")
    try pane.keys("+")
    #expect(waitUntil { (try? count("mail", daemon)) == 1 })
    try pane.keys("+")
    #expect(waitUntil { (try? count("mail", daemon)) == 2 })
    // The bar at rest with mail's new count. The click below aims at news's place in this row,
    // not in a fresh capture: while the badge still bounces, a capture taken between curses's
    // writes of one frame has shown news four cells to the left (on a busy machine, one run in
    // about ten), and the click then fell on mail. Clicks are taken against the bar's layout at
    // rest, so this is where news is.
    let rest = "  ci  2   ▐ mail  2  ▌  news  7"
    pane.wait("the page shows the daemon's count") { _ in pane.row(0).hasPrefix(rest) }

    // By mouse: a click on news's segment.
    let column = try #require(rest.range(of: "news")).lowerBound.utf16Offset(in: rest)
    try pane.click(row: 0, column: column)
    pane.wait("news's page after the click") { _ in pane.row(3) == "    news" }
    // And a click on the stepper's plus button.
    try pane.click(row: 11, column: 20)
    #expect(waitUntil { (try? count("news", daemon)) == 8 })

    // The wheel: p opens it at 8, ↓ ↓ and a turn of the mouse wheel down make 11, Enter sets it.
    try pane.keys("p")
    pane.wait("the wheel") { $0.contains("pick") && $0.contains(wheelRow(8)) }
    try pane.keys("Down", "Down")
    try pane.wheel(down: true, row: 8, column: 55)
    pane.wait("the wheel at 11") { $0.contains(wheelRow(11)) }
    try pane.keys("Enter")
    #expect(waitUntil { (try? count("news", daemon)) == 11 })
    // Typed digits jump; Escape cancels without a change.
    try pane.keys("p", "4", "2")
    pane.wait("the wheel at 42") { $0.contains(wheelRow(42)) }
    try pane.keys("Escape")
    pane.wait("the wheel closed") { !$0.contains("┌─ pick") }
    try pane.keys("+")
    #expect(waitUntil { (try? count("news", daemon)) == 12 })

    // A change made elsewhere appears at once.
    try badgectl(["set", "news", "30"], socket: daemon.socket)
    pane.wait("the outside change") { _ in pane.row(0).contains("news  30") }
    // c clears, m mutes.
    try pane.keys("c")
    #expect(waitUntil { (try? count("news", daemon)) == 0 })
    try pane.keys("m")
    #expect(waitUntil { (try? badgectl(["get", "news"], socket: daemon.socket).stdout)?.contains("muted") == true })
    pane.wait("news muted") { _ in pane.row(3).contains("muted") }

    // ? shows the keys; any key hides them.
    try pane.keys("?")
    pane.wait("the key help") { $0.contains("pick a count on the wheel") }
    try pane.keys("Space")
    pane.wait("the key help gone") { !$0.contains("pick a count on the wheel") }

    // A resize: the bar and the footer follow the new width.
    try pane.resize(rows: 20, columns: 60)
    pane.wait("the resized screen") { screen in
      let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
      return rows.count >= 20 && rows[1].count == 60 && rows[19].hasPrefix("←→ channel")
    }

    // q quits and gives the terminal back.
    try pane.keys("q")
    pane.wait("the exit status and the terminal's modes") { $0.contains("EXIT=0") && $0.contains("icanon") }
    #expect(try pane.display("#{alternate_on}") == "0")
    let stty = pane.screen
    #expect(
      stty.contains(" icanon") && stty.contains(" echo ") && !stty.contains("-icanon") && !stty.contains("-echo "),
      "\(stty)")
  }

  @Test func aLostDaemonIsShownOfflineAndTopReconnects() throws {
    let first = try DaemonProcess(config: "[daemon]\npulse_ms = 0\n")
    try badgectl(["set", "mail", "5"], socket: first.socket)
    let pane = try TopPane(daemon: first)
    pane.wait("mail") { _ in pane.row(0).contains("mail  5") }
    first.crash()
    pane.wait("the offline look") { $0.contains("offline: reconnecting") && $0.contains("5?") }
    // Keys do nothing while the daemon is away.
    try pane.keys("+")
    let second = try DaemonProcess(folder: first.folder, config: "[daemon]\npulse_ms = 0\n")
    defer { second.stop() }
    pane.wait("back online") { screen in !screen.contains("offline") && pane.row(0).contains("mail  5") }
    try pane.keys("+")
    #expect(waitUntil { (try? count("mail", second)) == 6 })
    pane.wait("the new count") { _ in pane.row(0).contains("mail  6") }

    // SIGTERM ends it and gives the terminal back too.
    let pid = try #require(try pane.topPID())
    kill(pid, SIGTERM)
    pane.wait("the exit status and the terminal's modes") { $0.contains("EXIT=0") && $0.contains("icanon") }
    #expect(try pane.display("#{alternate_on}") == "0")
    #expect(!pane.screen.contains("-icanon") && !pane.screen.contains("-echo "))
  }

  @Test func theStatisticsPanelShowsTheDaemonsFiguresAndFollowsChanges() throws {
    let config = "[daemon]\npulse_ms = 0\n"
    let first = try DaemonProcess(config: config)
    for change in [["incr", "mail", "5"], ["incr", "mail", "2"], ["clear", "mail"], ["incr", "mail", "1"]] {
      try badgectl(change, socket: first.socket)
    }
    let pane = try TopPane(daemon: first)
    pane.wait("mail") { _ in pane.row(0).contains("mail  1") }
    try pane.keys("s")
    // Today: 8 arrivals, 1 clear, a peak of 7; the week's control shows week selected.
    pane.wait("the week's figures") { $0.contains("▐ week ▌") && $0.contains("mail") && $0.contains(" 8      1    7") }
    // A change made elsewhere refreshes the figures (an event asks for them; no polling).
    try badgectl(["incr", "mail", "9"], socket: first.socket)
    pane.wait("the refreshed figures") { $0.contains(" 17      1   10") }
    // ] switches to the month: its header and the same figures, counted up again.
    try pane.keys("]")
    pane.wait("the month") { $0.contains("▐ month ▌") && $0.contains("month  ") && $0.contains(" 17      1   10") }
    // After a daemon restart the panel asks again, and the history is still there.
    first.crash()
    pane.wait("offline") { $0.contains("offline: reconnecting") }
    let second = try DaemonProcess(folder: first.folder, config: config)
    defer { second.stop() }
    pane.wait("back online") { !$0.contains("offline") }
    try badgectl(["decr", "mail", "10"], socket: second.socket)
    pane.wait("figures after the restart") { $0.contains(" 17      2   10") }
    try pane.keys("q")
    pane.wait("the exit status") { $0.contains("EXIT=0") }
  }

  @Test func ctrlCAndSIGHUPAlsoGiveTheTerminalBack() throws {
    let daemon = try DaemonProcess()
    try badgectl(["set", "mail", "2"], socket: daemon.socket)
    for way in ["C-c", "SIGHUP"] {
      let pane = try TopPane(daemon: daemon, name: way)
      pane.wait("mail") { _ in pane.row(0).contains("mail") }
      if way == "C-c" {
        try pane.keys("C-c")
      } else {
        kill(try #require(try pane.topPID()), SIGHUP)
      }
      pane.wait("\(way): the exit status and the terminal's modes") { $0.contains("EXIT=0") && $0.contains("icanon") }
      #expect(try pane.display("#{alternate_on}") == "0", "\(way)")
      #expect(!pane.screen.contains("-icanon") && !pane.screen.contains("-echo "), "\(way)")
    }
  }

  @Test func withoutADaemonItWaitsAndShowsTheChannelsOnceItStarts() throws {
    let folder = try TemporaryFolder()
    let socket = folder.file("badged.sock")
    let background = Background(folder: folder)
    let server = folder.file("tmux-waiting")
    defer { _ = try? background.run(["tmux", "-S", server, "kill-server"]) }
    try background.run(
      [
        "tmux", "-S", server, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "32",
        "env TERM=xterm-256color BADGED_SOCKET=\(socket) \(Binaries.badgectl.path) top",
      ])
    func screen() -> String { (try? background.run(["tmux", "-S", server, "capture-pane", "-p"])) ?? "" }
    #expect(
      waitUntil { screen().contains("Waiting for badged") && screen().contains("offline: reconnecting") }, "\(screen())"
    )
    let daemon = try DaemonProcess(folder: folder, socket: socket)
    defer { daemon.stop() }
    try badgectl(["set", "mail", "4"], socket: socket)
    #expect(waitUntil(timeout: 15) { screen().hasPrefix("▐ mail  4  ▌") }, "\(screen())")
  }

  @Test func theStepperStepsByTheChannelsStepSetting() throws {
    let daemon = try DaemonProcess(config: "[daemon]\npulse_ms = 0\n[channel build]\nstep = 5\n")
    try badgectl(["set", "build", "2"], socket: daemon.socket)
    let pane = try TopPane(daemon: daemon)
    pane.wait("build's page with its step") { $0.contains("[ − ]  step 5  [ + ]") }
    try pane.keys("+")
    #expect(waitUntil { (try? count("build", daemon)) == 7 })
    pane.wait("the page shows the daemon's count") { _ in pane.row(0).contains("build  7") }
    // A step set over the socket reaches top at once, and so does its reset to the config's.
    try badgectl(["configure", "build", "step=2"], socket: daemon.socket)
    pane.wait("the new step") { $0.contains("[ − ]  step 2  [ + ]") }
    try pane.keys("-")
    #expect(waitUntil { (try? count("build", daemon)) == 5 })
    try badgectl(["configure", "build", "step=default"], socket: daemon.socket)
    pane.wait("the config's step again") { $0.contains("[ − ]  step 5  [ + ]") }
    try pane.keys("+")
    #expect(waitUntil { (try? count("build", daemon)) == 10 })
    #expect(try count("build", daemon) == 10)
  }

  @Test func withoutATerminalItIsAUsageError() throws {
    let daemon = try DaemonProcess()
    let result = try badgectl(["top"], socket: daemon.socket)
    #expect(result.status == 64)
    #expect(result.stderr.contains("'badgectl top' needs a terminal on standard input and output"))
    // The step is the channel's setting now, not an option.
    let step = try badgectl(["top", "--step", "5"], socket: daemon.socket)
    #expect(step.status == 64)
    #expect(step.stderr.contains("Unknown option '--step'"))
    let name = try badgectl(["top", "bad name"], socket: daemon.socket)
    #expect(name.status == 64)
  }
}
