import Foundation

/// A folder of this test run's own (one per test process), removed when the process exits: the
/// home and runtime folders every program a test starts is given, and the installed copy of
/// the binaries (`InstalledBinaries`). It may be entered by every user, so that a program run
/// as nobody reaches that copy; the home and runtime folders in it are private.
enum TestRun {
  static let folder: String = {
    // Short, like TemporaryFolder's: socket paths under the runtime folder must fit in 107 bytes.
    var template = Array("/tmp/bdt-run-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("cannot make the test run's folder in /tmp: errno \(errno)") }
    let path = String(cString: made)
    chmod(path, 0o755)
    for name in ["home", "run"] where mkdir(path + "/" + name, 0o700) != 0 {
      fatalError("cannot make \(path)/\(name): errno \(errno)")
    }
    atexit { try? FileManager.default.removeItem(atPath: TestRun.folder) }
    return path
  }()

  /// `HOME` for every program a test starts: empty, so that nothing of the user running the
  /// tests (a badged.conf, systemd drop-ins, shell or lintian settings) reaches them.
  static var home: String { folder + "/home" }

  /// `XDG_RUNTIME_DIR` for every program a test starts: a program that looks for badged's
  /// default socket finds this run's folder, never the user's daemon or another run's.
  static var runtime: String { folder + "/run" }
}

extension Child {
  /// Variables of the test run's environment that no program a test starts gets: those that
  /// point it at the user's daemon, service manager, session and files, and the preferences
  /// that change what badgectl and the tools print. A test that needs one sets it.
  static let withheld: Set<String> = [
    // Another daemon, and the service manager the tests may run under (a CI job's unit).
    "BADGED_SOCKET", "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES",
    "JOURNAL_STREAM",
    // The user's session: displays, compositor, window manager, terminal multiplexer.
    "DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK", "I3SOCK", "TMUX", "TMUX_PANE",
    // The user's files (HOME and XDG_RUNTIME_DIR are replaced), and their notmuch database.
    "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "MANPATH", "NOTMUCH_CONFIG",
    "NOTMUCH_PROFILE", "NOTMUCH_DATABASE",
    // Preferences: colour, motion, the terminal and its size, i3blocks' block, man's output,
    // and the locale (LC_* go too; LANG is set).
    "NO_COLOR", "NO_MOTION", "COLORTERM", "TERM", "COLUMNS", "LINES", "BLOCK_INTERVAL", "MANWIDTH", "MANOPT",
    "MANPAGER", "PAGER", "LANGUAGE",
  ]

  /// The environment of a program a test starts: the test run's own without `withheld` and
  /// `LC_*`, with this run's home and runtime folders, `LANG=C.UTF-8`, and a session bus
  /// address where no bus is (a daemon under test never joins the user's session bus; the bus
  /// tests start a bus of their own and pass its address), plus `extra`.
  static func environment(_ extra: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment.filter { name, _ in
      !withheld.contains(name) && !name.hasPrefix("LC_")
    }
    environment["HOME"] = TestRun.home
    environment["XDG_RUNTIME_DIR"] = TestRun.runtime
    environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/badged-tests/bus"
    environment["LANG"] = "C.UTF-8"
    return environment.merging(extra) { $1 }
  }
}
