import BadgeCtl
import BadgePOSIX
import Glibc

/// `badgectl-session`: `badgectl` with the commands that need libsystemd or ncursesw carried out
/// in-process (`SessionWork`). `badgectl` hands it its whole command line, which is read and
/// checked again here, so both programs answer every line the same way.
public enum SessionCommands {
  /// Runs `arguments` (without the program name) as `badgectl` would, session work included,
  /// and returns the exit status.
  public static func main(_ arguments: [String]) -> Int32 {
    SessionProgram.runner = run
    return BadgeCtl.main(arguments)
  }

  private static func run(_ work: SessionWork, socket: String) throws(CtlError) {
    switch work {
    case .watch(let command):
      try Watcher.watch(socket: socket, patterns: command.patterns, settings: WatchSettings(command)).run()
    case .top(let command):
      try TopSession.run(command, socket: socket)
    case .open(let command):
      try command.openAndClear(socket: socket, opening: AppOpener.open)
    case .stats(let command):
      try command.show(StatsSettings(command), socket: socket) { (panel) throws(CtlError) in
        try StatsCountUp.animate(panel, socket: socket)
      }
    case .web(let command):
      try WebTokens.run(
        command, now: Int64(Environment.wallClockMicroseconds / 1_000_000), colours: isatty(STDOUT_FILENO) == 1)
    }
  }
}
