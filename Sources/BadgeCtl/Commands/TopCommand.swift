import BadgeCore
import BadgeRender
import BadgeScreen
import BadgeSystem
import BadgeTop
import Glibc

/// `badgectl top`: checks its options and the terminal, takes the screen, and runs the
/// dashboard on a watcher's loop until `q`, Ctrl-C, SIGTERM or SIGHUP; the terminal is given back
/// on every way out, an error included.
enum TopCommand {
  static func run(_ command: ParsedCommand, socket: String) throws(CtlError) {
    let patterns = try command.positionals.map { (text) throws(CtlError) in try BadgeCtl.pattern(text, command) }
    guard FileDescriptor.standardInput.isTerminal, FileDescriptor.standardOutput.isTerminal else {
      throw .usage(UsageError("'badgectl top' needs a terminal on standard input and output", command: "top"))
    }
    Signals.block([SIGTERM, SIGINT, SIGHUP, SIGWINCH])
    let screen: CursesScreen
    do {
      screen = try CursesScreen(colour: Environment.value("NO_COLOR") == nil)
    } catch {
      throw .usage(UsageError("Cannot use the terminal: \(error.description)", command: "top"))
    }
    defer { screen.end() }
    let options = TopOptions(
      noMotion: command.has("--no-motion") || Environment.value("NO_MOTION") != nil,
      colour: screen.colourMode)
    let watcher: Watcher
    do {
      let loop = try EventLoop()
      let dashboard = try TopDashboard(loop: loop, screen: screen, options: options)
      watcher = Watcher(
        socket: socket, patterns: patterns, loop: loop, surface: dashboard, clicks: (false, false),
        showsStandIns: false)
      dashboard.send = { [unowned watcher] in watcher.send($0) }
    } catch {
      throw .unreachable(socket: socket, cause: error.description)
    }
    try watcher.run()
  }
}
