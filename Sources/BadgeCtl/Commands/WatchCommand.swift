import BadgeCore
import BadgeRender

/// `badgectl watch [<channel or glob> ...]`: what to watch and how to show it, as given. What the
/// options make together with the surroundings (a terminal or not, `NO_COLOR`, …), and whether
/// they fit each other, is `WatchSettings`; the watching itself is `Watcher`'s, in badgectl-session.
package struct WatchCommand: Subcommand {
  static let formatOption = ValueOption<OutputFormat>(
    "--format", value: "format", .choice,
    help: "term (ANSI, animated), waybar, polybar, i3blocks, tmux, eww, json, yambar, plain or "
      + "frames (the engine's values, one JSON object per frame). "
      + "(default: term on a terminal, else plain)")
  static let fpsOption = ValueOption<Int>(
    "--fps", value: "n", .number(1...WatchSettings.maxFramesPerSecond),
    help: "Frames per second while a badge moves, 1-\(WatchSettings.maxFramesPerSecond), capped per format: "
      + "term \(OutputFormat.term.maxFramesPerSecond), frames \(OutputFormat.frames.maxFramesPerSecond), "
      + "i3blocks \(OutputFormat.i3blocks.maxFramesPerSecond), tmux \(OutputFormat.tmux.maxFramesPerSecond), "
      + "others \(OutputFormat.plain.maxFramesPerSecond). (default: \(FrameRate.standard))")
  static let templateOption = ValueOption<Template>(
    "--template", value: "template", .template,
    help: "The text of each channel in term, plain, tmux, polybar, waybar and i3blocks: "
      + "{channel} {count} {label} {icon} {text}, {{ and }} for braces. "
      + "(default: {label}; {channel} {label} for several channels and in a terminal)")
  static let maxOption = ValueOption<Int>(
    "--max", value: "n", .number(Limits.maxLabel),
    help: "Show counts above N as 'N+', \(CommandSpec.range(Limits.maxLabel)), whatever the daemon's max_label. "
      + "(default: the daemon's label)")
  static let bigFlag = Flag("--big", help: "term only: draw counts in a five-row digit font whose digits slide.")
  static let clickOption = ValueOption<String>(
    "--click", value: "command", .text,
    help:
      "polybar only: make the module a left-click area that runs this command; with {channel} and {total} in it, "
      + "each channel an area of its own that fills in its name and the running total shown "
      + "('badgectl clear {channel} --upto {total}')."
  )
  static let openFlag = Flag(
    "--open",
    help: "Clicks open the app behind each app: or notify: channel they would clear (as 'badgectl open' does, "
      + "which then clears it) instead of only clearing it.")

  static let spec = CommandSpec(
    name: "watch", abstract: "Show every change of the watched channels, forever.",
    discussion: """
      Shows the current state of the channels, then every change as it happens, in the format of
      a terminal or a status bar. Never exits on its own: when the daemon goes away the badges
      take an offline look and it reconnects with backoff.
      Without arguments it watches every channel. Globs use * and ? (quote them for the shell).
      Counts bounce and roll, badges fade in and out, dots pulse during their pulse window;
      nothing wakes the watcher while nothing moves.
      Clicks: SIGUSR1 clears the watched channels (polybar: click-left = kill -USR1 %pid%); with
      --format i3blocks (i3blocks 1.5 or later) a left click read on standard input does the same.
      With --open a click opens the apps behind the app: and notify: channels it clears.
      NO_COLOR, TERM=dumb and output that is not a terminal turn colour and cursor codes off;
      COLORTERM=truecolor (or 24bit) selects 24-bit colour, else 256 colours.
      """,
    usage: "[<channel or glob> ...]",
    arguments: [CommandSpec.patternsArgument],
    options: [
      formatOption, fpsOption, CommandSpec.noMotionFlag, templateOption, maxOption, bigFlag, clickOption, openFlag,
    ],
    positionals: 0...64)

  /// The channels to watch; none for every channel.
  package let patterns: [ChannelPattern]
  /// `--format`; `nil` for the surroundings' default.
  let format: OutputFormat?
  /// `--fps`; `nil` for the format's default.
  let framesPerSecond: Int?
  let noMotion: Bool
  let template: Template?
  /// `--max`; `nil` for the daemon's labels.
  let maxLabel: Int?
  let big: Bool
  /// `--click`: the command a polybar click runs.
  let clickCommand: String?
  /// `--open`: a click opens the apps behind the channels it clears.
  let opensApps: Bool

  init(_ arguments: inout CommandArguments) throws(UsageError) {
    patterns = try arguments.rest(.pattern)
    format = try arguments.value(Self.formatOption)
    framesPerSecond = try arguments.value(Self.fpsOption)
    noMotion = arguments.flag(CommandSpec.noMotionFlag)
    template = try arguments.value(Self.templateOption)
    maxLabel = try arguments.value(Self.maxOption)
    big = arguments.flag(Self.bigFlag)
    clickCommand = try arguments.value(Self.clickOption)
    opensApps = arguments.flag(Self.openFlag)
  }

  func run(socket: String) throws(CtlError) {
    try SessionProgram.run(.watch(self), socket: socket)
  }
}
