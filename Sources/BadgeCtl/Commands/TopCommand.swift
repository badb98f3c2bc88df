import BadgeCore

/// `badgectl top [<channel or glob> ...]`: what to show, as given; the dashboard itself runs in
/// badgectl-session (`TopSession`).
package struct TopCommand: Subcommand {
  package static let spec = CommandSpec(
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
  package let patterns: [ChannelPattern]
  package let noMotion: Bool

  init(_ arguments: inout CommandArguments) throws(UsageError) {
    patterns = try arguments.rest(.pattern)
    noMotion = arguments.flag(CommandSpec.noMotionFlag)
  }

  func run(socket: String) throws(CtlError) {
    try SessionProgram.run(.top(self), socket: socket)
  }
}
