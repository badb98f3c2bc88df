import BadgeCore
import BadgeRender
import BadgeScreen
import BadgeSystem
import BadgeTop
import Glibc

/// `badgectl top [<channel or glob> ...]`: checks the terminal, takes the screen, and runs the
/// dashboard on a watcher's loop until `q`, Ctrl-C, SIGTERM or SIGHUP; the terminal is given back
/// on every way out, an error included.
struct TopCommand: Subcommand {
  static let spec = CommandSpec(
    name: "top", abstract: "A live dashboard to read and change the counts.",
    discussion: """
      A full-screen view that stays open: a segmented bar of the channels with their badges
      across the top, the selected channel's page below it with its count in large rolling
      digits, a stepper and a number wheel. Changes made anywhere appear at once with their
      motion; changes made here go to the daemon and every other client sees them.
      Keys: ←/→, Tab/Shift-Tab and 1-9, 0 select a channel (or click its segment); - and + step
      the count by the channel's step setting (configure's step, 1 unless set; hold for
      faster, ×10 after a second; or click the buttons); p opens the
      number wheel (↑/↓, PgUp/PgDn, the mouse wheel or digits; Enter sets, Esc cancels);
      c clears; m mutes or unmutes; s opens the statistics of the channel ([ and ] change the
      period: day, week, month, year); ? shows the keys; q or Ctrl-C quits.
      When the daemon goes away every channel takes the offline look and top reconnects with
      backoff. Nothing wakes it while nothing moves. Needs a terminal.
      """,
    usage: "[<channel or glob> ...]",
    arguments: [
      CommandSpec.Argument(
        name: "<channel or glob>", kind: .channelOrGlob,
        help: "A channel name, or a pattern such as 'app:*'. (default: every channel)")
    ],
    options: [CommandSpec.noMotionFlag], positionals: 0...64)

  /// The channels to show; none for every channel.
  let patterns: [ChannelPattern]
  let noMotion: Bool

  init(_ arguments: inout CommandArguments) throws(UsageError) {
    patterns = try arguments.rest(.pattern)
    noMotion = arguments.flag(CommandSpec.noMotionFlag)
  }

  func run(socket: String) throws(CtlError) {
    guard FileDescriptor.standardInput.isTerminal, FileDescriptor.standardOutput.isTerminal else {
      throw .usage(UsageError("'badgectl top' needs a terminal on standard input and output", command: Self.spec.name))
    }
    Signals.block([SIGTERM, SIGINT, SIGHUP, SIGWINCH])
    let screen: CursesScreen
    do {
      screen = try CursesScreen(colour: Environment.value("NO_COLOR") == nil)
    } catch {
      throw .usage(UsageError("Cannot use the terminal: \(error.description)", command: Self.spec.name))
    }
    defer { screen.end() }
    let options = TopOptions(
      noMotion: noMotion || Environment.value("NO_MOTION") != nil,
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
