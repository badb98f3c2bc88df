import BadgeCore
import BadgeRender

/// The commands of `badgectl`, as data: names, arguments, options and help texts. The parser,
/// the help screens and the shell completions read this one table; a test checks that
/// badgectl(1) describes every command and option in it.
struct CommandSpec: Sendable {
  /// An option a command accepts.
  struct Option: Sendable {
    /// `--format`
    let name: String
    /// `-f`, if any.
    let short: String?
    /// `<format>` for options that take a value; `nil` for flags.
    let valueName: String?
    let help: String
    /// The values it accepts, when they are a fixed set (for checks and completions).
    let choices: [String]

    init(_ name: String, short: String? = nil, value: String? = nil, choices: [String] = [], help: String) {
      self.name = name
      self.short = short
      self.valueName = value
      self.choices = choices
      self.help = help
    }
  }

  /// A positional argument, for the help screen.
  struct Argument: Sendable {
    /// What the argument is, for completion.
    enum Kind: Sendable {
      case channel, channelOrGlob, setting, command, number
      /// One of a command's own words (`dnd on`).
      case word
    }

    let name: String
    let kind: Kind
    let help: String
  }

  let name: String
  let abstract: String
  let discussion: String
  /// The arguments after the command name, as the USAGE line shows them.
  let usage: String
  let arguments: [Argument]
  let options: [Option]
  /// How many positional arguments it takes.
  let positionals: ClosedRange<Int>
}

extension CommandSpec {
  static let formatOption = Option(
    "--format", value: "format", choices: SnapshotFormat.allCases.map(\.rawValue),
    help: "plain (one line per channel) or json (one object per line). (default: plain)")

  /// `watch`'s options. What each value may be, and which format it applies to, is checked in
  /// `WatchSettings`.
  static let watchOptions: [Option] = [
    Option(
      "--format", value: "format", choices: OutputFormat.allCases.map(\.rawValue),
      help: "term (ANSI, animated), waybar, polybar, i3blocks, tmux, eww, json, yambar, plain or "
        + "frames (the engine's values, one JSON object per frame). "
        + "(default: term on a terminal, else plain)"),
    Option(
      "--fps", value: "n",
      help: "Frames per second while a badge moves, 1-\(WatchSettings.maxFramesPerSecond), capped per format: "
        + "term \(OutputFormat.term.maxFramesPerSecond), frames \(OutputFormat.frames.maxFramesPerSecond), "
        + "i3blocks \(OutputFormat.i3blocks.maxFramesPerSecond), tmux \(OutputFormat.tmux.maxFramesPerSecond), "
        + "others \(OutputFormat.plain.maxFramesPerSecond). (default: \(FrameRate.standard))"),
    Option(
      "--no-motion",
      help: "Show end states only, with no animation; also when NO_MOTION is set."),
    Option(
      "--template", value: "template",
      help: "The text of each channel in term, plain, tmux, polybar, waybar and i3blocks: "
        + "{channel} {count} {label} {icon} {text}, {{ and }} for braces. "
        + "(default: {label}; {channel} {label} for several channels and in a terminal)"),
    Option(
      "--max", value: "n",
      help: "Show counts above N as 'N+', \(range(Limits.maxLabel)), whatever the daemon's max_label. "
        + "(default: the daemon's label)"),
    Option("--big", help: "term only: draw counts in a five-row digit font whose digits slide."),
    Option(
      "--click", value: "command",
      help: "polybar only: make the module a left-click area that runs this command."),
    Option(
      "--open",
      help: "Clicks open the app behind each app: or notify: channel they would clear (as 'badgectl open' does, "
        + "which then clears it) instead of only clearing it."),
  ]

  /// `stats`'s options.
  static let statsOptions: [Option] = [
    Option(
      "--period", value: "period", choices: StatsPeriod.allCases.map(\.rawValue),
      help: "day (today), week (the last 7 days), month (the last 30) or year (the last 365). (default: day)"),
    Option(
      "--format", value: "format", choices: StatsSettings.Format.allCases.map(\.rawValue),
      help: "term (bars and charts that count up), json (one object per channel, with every day) or "
        + "plain (one line per channel). (default: term on a terminal, else plain)"),
    Option("--no-motion", help: "Show the end values at once; also when NO_MOTION is set."),
  ]

  /// The options every command accepts.
  static let globalOptions: [Option] = [
    Option(
      "--socket", value: "path",
      help: "The daemon's socket. (default: $BADGED_SOCKET, else $XDG_RUNTIME_DIR/badged/badged.sock)"),
    Option("--help", short: "-h", help: "Show help information."),
  ]

  static let channelArgument = Argument(
    name: "<channel>", kind: .channel,
    help: "A channel name: 1-64 characters from A-Z a-z 0-9 . _ - : starting with a letter or digit.")

  static let all: [CommandSpec] = [
    CommandSpec(
      name: "incr", abstract: "Add to a channel's count.",
      discussion: "Adds N (default 1) and starts the channel's pulse window. Prints the new state.",
      usage: "<channel> [<n>]",
      arguments: [channelArgument, Argument(name: "<n>", kind: .number, help: "How many to add, 1-\(Limits.maxCount). (default: 1)")],
      options: [formatOption], positionals: 1...2),
    CommandSpec(
      name: "decr", abstract: "Take from a channel's count.",
      discussion: "Subtracts N (default 1); the count stops at 0. Prints the new state.",
      usage: "<channel> [<n>]",
      arguments: [channelArgument, Argument(name: "<n>", kind: .number, help: "How many to take, 1-\(Limits.maxCount). (default: 1)")],
      options: [formatOption], positionals: 1...2),
    CommandSpec(
      name: "set", abstract: "Set a channel's count.",
      discussion: "Sets the count to N; a rise starts the pulse window. Prints the new state.",
      usage: "<channel> <n>",
      arguments: [channelArgument, Argument(name: "<n>", kind: .number, help: "The new count, 0-\(Limits.maxCount).")],
      options: [formatOption], positionals: 2...2),
    CommandSpec(
      name: "clear", abstract: "Set a channel's count, or every count, to 0.",
      discussion: "Prints the state of each channel it cleared.",
      usage: "<channel> | --all",
      arguments: [channelArgument],
      options: [Option("--all", help: "Clear every channel."), formatOption], positionals: 0...1),
    CommandSpec(
      name: "open", abstract: "Open the app of an app: or notify: channel; clear it.",
      discussion: """
        Asks the app to come forward with org.freedesktop.Application.Activate on the session
        bus where it is D-Bus activatable (which starts it if needed), else launches its desktop
        file (<id>.desktop under $XDG_DATA_HOME and $XDG_DATA_DIRS) with gio launch or
        gtk-launch. Then clears the channel and prints its state. When the app cannot be
        opened, the count stays and the exit status is 1.
        """,
      usage: "<channel>", arguments: [channelArgument], options: [formatOption], positionals: 1...1),
    CommandSpec(
      name: "get", abstract: "Print a channel's state.",
      discussion: "A channel never written reads as count 0.",
      usage: "<channel>", arguments: [channelArgument], options: [formatOption], positionals: 1...1),
    CommandSpec(
      name: "list", abstract: "Print every channel that has a count or a setting.",
      discussion: "One line (or JSON object) per channel, by name.",
      usage: "", arguments: [], options: [formatOption], positionals: 0...0),
    CommandSpec(
      name: "mute", abstract: "Mute a channel: it keeps counting but never pulses.",
      discussion: "", usage: "<channel>", arguments: [channelArgument], options: [formatOption],
      positionals: 1...1),
    CommandSpec(
      name: "unmute", abstract: "Unmute a channel.",
      discussion: "", usage: "<channel>", arguments: [channelArgument], options: [formatOption],
      positionals: 1...1),
    CommandSpec(
      name: "configure", abstract: "Change a channel's settings.",
      discussion: """
        Settings made here win over the config file and are kept across restarts.
        Keys: max_label (\(range(Limits.maxLabel))), style (count or dot), pulse_ms (\(range(Limits.pulseMs))), muted (yes or no),
        badge (count or unseen), dnd (obey or ignore), step (\(range(Limits.step)); what top's - and +
        change the count by), export (a desktop id such as org.example.App: the count is announced
        to docks for that app).
        'key=default' drops a setting so that the config file's value applies again.
        """,
      usage: "<channel> <key>=<value> ...",
      arguments: [channelArgument, Argument(name: "<key>=<value>", kind: .setting, help: "A setting, e.g. style=dot or max_label=9.")],
      options: [formatOption], positionals: 2...32),
    CommandSpec(
      name: "seen", abstract: "Mark a channel's unread items, or all, as seen.",
      discussion: """
        Sets the channel's unseen items to 0 and keeps its count; later increases count as new
        again. A channel with badge=unseen then shows the quiet dot until something new arrives.
        Prints the state of each channel it changed.
        """,
      usage: "<channel> | --all",
      arguments: [channelArgument],
      options: [Option("--all", help: "Mark every channel seen."), formatOption], positionals: 0...1),
    CommandSpec(
      name: "pulse", abstract: "Pulse a channel's badge; its count stays.",
      discussion: """
        Starts the channel's pulse window, or extends it, for MS milliseconds or the channel's
        pulse_ms. A channel at 0, a muted one, and one silenced by do-not-disturb do not pulse.
        Prints the channel's state.
        """,
      usage: "<channel> [<ms>]",
      arguments: [channelArgument, Argument(name: "<ms>", kind: .number, help: "How long, \(range(1...Limits.pulseMs.upperBound)) milliseconds. (default: the channel's pulse_ms)")],
      options: [formatOption], positionals: 1...2),
    CommandSpec(
      name: "dnd", abstract: "Turn do-not-disturb on or off, or show it.",
      discussion: """
        While do-not-disturb is on, counts go on but badges are hidden, dimmed or shown as the
        daemon's dnd_badges says, nothing pulses and no hook runs; channels with dnd = ignore
        are left alone. It lasts until 'dnd off', or for a DURATION (90s, 30m, 2h; at most 30
        days), or until a local time (until 18:00, the next time the clock reads it); the
        daemon ends it by itself and keeps it across restarts. 'toggle' turns it off when it is
        on, else on until turned off. Prints the state: 'dnd on (30m left)', 'dnd on', 'dnd off'.
        """,
      usage: "on [<duration> | until <HH:MM>] | off | toggle | status",
      arguments: [
        Argument(name: "on|off|toggle|status", kind: .word, help: "What to do; status only shows it."),
        Argument(name: "<duration>", kind: .word, help: "How long: a whole number and a unit, ms, s, m or h."),
      ],
      options: [formatOption], positionals: 1...3),
    CommandSpec(
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
      arguments: [Argument(name: "<channel or glob>", kind: .channelOrGlob, help: "A channel name, or a pattern such as 'app:*'.")],
      options: watchOptions, positionals: 0...64),
    CommandSpec(
      name: "stats", abstract: "Show arrivals, clears and peaks per channel and day.",
      discussion: """
        Per channel: the period's arrivals (the sum of increases), clears (changes to 0) and peak
        count, and its arrivals per day. The period ends today (local days): day is today, week the
        last 7 days, month the last 30, year the last 365. Without arguments: every channel with
        history; a channel named exactly is shown even without any.
        In a terminal the arrivals are bars and a column chart, and every number and bar counts up
        from 0 together; --no-motion or NO_MOTION shows the end values at once, as does output that
        is not a terminal.
        """,
      usage: "[<channel or glob> ...]",
      arguments: [Argument(name: "<channel or glob>", kind: .channelOrGlob, help: "A channel name, or a pattern such as 'app:*'.")],
      options: statsOptions, positionals: 0...64),
    CommandSpec(
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
      arguments: [Argument(name: "<channel or glob>", kind: .channelOrGlob, help: "A channel name, or a pattern such as 'app:*'. (default: every channel)")],
      options: [
        Option("--no-motion", help: "Show end states only, with no animation; also when NO_MOTION is set."),
      ],
      positionals: 0...64),
    CommandSpec(
      name: "reload", abstract: "Make the daemon re-read its config file.",
      discussion: """
        Does what SIGHUP does: a valid file applies to every channel, and watchers are sent the
        channels whose label or style changed. A broken file is refused with file:line: reason
        (exit status 1) and the daemon keeps its old config.
        """,
      usage: "", arguments: [], options: [], positionals: 0...0),
    CommandSpec(
      name: "ping", abstract: "Check that the daemon answers.",
      discussion: "Exits 0 when it does, 69 when it cannot be reached.",
      usage: "", arguments: [], options: [], positionals: 0...0),
    CommandSpec(
      name: "help", abstract: "Show help for badgectl or one of its commands.",
      discussion: "", usage: "[<command>]",
      arguments: [Argument(name: "<command>", kind: .command, help: "The command to explain.")], options: [], positionals: 0...1),
  ]

  /// `1-2147483647`: a range as the help texts write it.
  private static func range(_ range: ClosedRange<Int>) -> String { "\(range.lowerBound)-\(range.upperBound)" }

  static func named(_ name: String) -> CommandSpec? {
    all.first { $0.name == name }
  }
}
