import BadgeCore
import BadgePOSIX
import BadgeRender

/// What `badgectl watch` was asked for, resolved in its surroundings: the output format, how
/// badges move, how they are drawn, and whether clicks come in on standard input.
///
/// The command line's values were checked as `WatchCommand` read them; an option that does not
/// apply to the format it comes to is refused here with a usage error (exit 64), before
/// anything connects.
package struct WatchSettings {
  package var format: OutputFormat
  package var animator: AnimatorOptions
  package var render: RenderOptions
  /// i3blocks sends clicks to a persistent block's standard input.
  package var readsClicks: Bool
  /// `--open`: a click opens the app behind each `app:` or `notify:` channel it would clear
  /// (`badgectl open`, which clears it then) instead of only clearing it.
  package var opensApps: Bool

  /// The facts about the process's surroundings that the settings depend on.
  package struct Surroundings {
    /// `NO_COLOR` is set (to anything but the empty string).
    var noColour: Bool
    /// `TERM=dumb`: no escape codes at all.
    var dumbTerminal: Bool
    /// `COLORTERM` is `truecolor` or `24bit`.
    var trueColour: Bool
    /// `NO_MOTION` is set.
    var noMotion: Bool
    var outputIsTerminal: Bool
    /// Standard input is open and not a terminal: a bar may write clicks to it.
    var inputIsPipe: Bool
    /// Standard input is shared with i3blocks itself. i3blocks 1.4 (Debian 12's) gives a
    /// persistent block no input of its own: the block inherits the click stream i3bar sends
    /// i3blocks, and reading it would steal other blocks' clicks. It sets BLOCK_INTERVAL but
    /// not the lower-case block properties (`interval`) that 1.5 and later set beside the
    /// pipe they give each persistent block.
    var inputIsSharedWithI3blocks: Bool

    package static var current: Surroundings {
      let colourTerm = Environment.value("COLORTERM")
      return Surroundings(
        noColour: Environment.value("NO_COLOR") != nil,
        dumbTerminal: Environment.value("TERM") == "dumb",
        trueColour: colourTerm == "truecolor" || colourTerm == "24bit",
        noMotion: Environment.value("NO_MOTION") != nil,
        outputIsTerminal: FileDescriptor.standardOutput.isTerminal,
        inputIsPipe: FileDescriptor.standardInput.isOpen && !FileDescriptor.standardInput.isTerminal,
        inputIsSharedWithI3blocks: Environment.value("BLOCK_INTERVAL") != nil && Environment.value("interval") == nil)
    }
  }

  /// The most frames per second `--fps` takes; each format caps it lower (`FrameRate`).
  static let maxFramesPerSecond = 1000

  /// The formats whose text a `--template` shapes.
  static let templatedFormats: [OutputFormat] = [.term, .plain, .tmux, .polybar, .waybar, .i3blocks]

  /// Resolves `command`'s options in the surroundings and checks them against each other.
  ///
  /// - Throws: `CtlError.usage` naming an option that does not apply to the format.
  package init(_ command: WatchCommand, surroundings: Surroundings = .current) throws(CtlError) {
    let terminal = surroundings.outputIsTerminal
    // --big draws only in the terminal format, so it picks that format when none is named.
    let fallback: OutputFormat = terminal || command.big ? .term : .plain
    format = command.format ?? fallback
    animator = AnimatorOptions(
      maxLabel: command.maxLabel,
      noMotion: command.noMotion || surroundings.noMotion || !format.showsMotion,
      frameInterval: FrameRate.interval(for: format, requested: command.framesPerSecond))

    try WatchSettings.require(
      command.template == nil || WatchSettings.templatedFormats.contains(format), WatchCommand.templateOption.row,
      appliesTo: WatchSettings.templatedFormats.map(\.rawValue).joined(separator: ", "), not: format)
    try WatchSettings.require(!command.big || format == .term, WatchCommand.bigFlag.row, appliesTo: "term", not: format)
    try WatchSettings.require(
      command.clickCommand == nil || format == .polybar, WatchCommand.clickOption.row, appliesTo: "polybar",
      not: format)

    // No escape codes unless a real terminal that understands them reads the output.
    let plainTerminal = surroundings.dumbTerminal || !terminal
    let colour: ColourMode =
      plainTerminal || surroundings.noColour ? .none : surroundings.trueColour ? .trueColour : .palette256
    render = RenderOptions(
      template: command.template, colour: colour, rewrite: !plainTerminal, big: command.big,
      clickCommand: command.clickCommand)
    readsClicks = format == .i3blocks && surroundings.inputIsPipe && !surroundings.inputIsSharedWithI3blocks
    opensApps = command.opensApps
  }

  private static func require(
    _ condition: Bool, _ option: CommandSpec.Option, appliesTo formats: String, not format: OutputFormat
  ) throws(CtlError) {
    guard !condition else { return }
    throw .usage(
      UsageError(
        "'\(option.name)' applies to --format \(formats), not '\(format.rawValue)'", command: WatchCommand.spec.name))
  }
}
