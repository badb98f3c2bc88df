import BadgeCore
import BadgeCtl
import BadgeRender
import BadgeScreen
import BadgeSystem
import BadgeTop
import Glibc

/// `badgectl top`: checks the terminal, takes the screen, and runs the dashboard on a watcher's
/// loop until `q`, Ctrl-C, SIGTERM or SIGHUP; the terminal is given back on every way out, an
/// error included.
enum TopSession {
  static func run(_ command: TopCommand, socket: String) throws(CtlError) {
    guard FileDescriptor.standardInput.isTerminal, FileDescriptor.standardOutput.isTerminal else {
      throw .usage(
        UsageError("'badgectl top' needs a terminal on standard input and output", command: TopCommand.spec.name))
    }
    Signals.block([SIGTERM, SIGINT, SIGHUP, SIGWINCH])
    let screen: CursesScreen
    do {
      screen = try CursesScreen(colour: Environment.value("NO_COLOR") == nil)
    } catch {
      throw .usage(UsageError("Cannot use the terminal: \(error.description)", command: TopCommand.spec.name))
    }
    defer { screen.end() }
    let options = TopOptions(
      noMotion: command.noMotion || Environment.value("NO_MOTION") != nil,
      colour: screen.colourMode)
    let watcher: Watcher
    do {
      let loop = try EventLoop()
      let dashboard = try TopDashboard(loop: loop, screen: screen, options: options)
      watcher = Watcher(
        socket: socket, patterns: command.patterns, loop: loop, surface: dashboard, clicks: (false, false),
        showsStandIns: false)
      dashboard.send = { [unowned watcher] in watcher.send($0) }
    } catch {
      throw .unreachable(socket: socket, cause: error.description)
    }
    try watcher.run()
  }
}
