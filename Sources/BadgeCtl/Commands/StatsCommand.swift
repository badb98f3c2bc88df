import BadgeCore
import BadgeProtocol
import BadgeRender

/// `badgectl stats [<channel or glob> ...]`: one `STATS` request, then the figures as JSON, plain
/// lines, or a terminal panel whose numbers and bars count up together (`StatsCountUp`, in badgectl-session).
package struct StatsCommand: Subcommand {
  static let periodOption = ValueOption<StatsPeriod>(
    "--period", value: "period", .choice,
    help: "day (today), week (the last 7 days), month (the last 30) or year (the last 365). (default: day)")
  static let formatOption = ValueOption<StatsSettings.Format>(
    "--format", value: "format", .choice,
    help: "term (bars and charts that count up), json (one object per channel, with every day) or "
      + "plain (one line per channel). (default: term on a terminal, else plain)")
  static let noMotionFlag = Flag("--no-motion", help: "Show the end values at once; also when NO_MOTION is set.")

  static let spec = CommandSpec(
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
    arguments: [CommandSpec.patternsArgument],
    options: [periodOption, formatOption, noMotionFlag], positionals: 0...64)

  /// The most channels shown from one reply: as many as the daemon keeps history for.
  static let maxChannels = History.defaultMaxChannels

  /// The channels to show; none for every channel with history.
  let patterns: [ChannelPattern]
  let period: StatsPeriod
  /// `--format`; `nil` for the surroundings' default.
  let format: StatsSettings.Format?
  let noMotion: Bool

  init(_ arguments: inout CommandArguments) throws(UsageError) {
    patterns = try arguments.rest(.pattern)
    period = try arguments.value(Self.periodOption) ?? .day
    format = try arguments.value(Self.formatOption)
    noMotion = arguments.flag(Self.noMotionFlag)
  }

  func run(socket: String) throws(CtlError) {
    let settings = StatsSettings(self)
    if settings.format == .term && settings.motion { return try SessionProgram.run(.stats(self), socket: socket) }
    try show(settings, socket: socket, countUp: nil)
  }

  /// Sends the request and shows its figures; a terminal panel counts up with `countUp` when
  /// the settings ask for motion and there is one (the count-up runs in badgectl-session).
  package func show(
    _ settings: StatsSettings, socket: String, countUp: ((StatsPanel) throws(CtlError) -> Void)?
  ) throws(CtlError) {
    var reply = StatsLines.Collector(maxChannels: Self.maxChannels)
    try DaemonConnection(socket: socket).request(settings.request) { line in
      if case .data(let text) = line { reply.add(text) }
    }
    if reply.leftOut > 0 {
      Output.error("Showing the first \(Self.maxChannels) channels of the reply; \(reply.leftOut) more left out.\n")
    }
    let stats = reply.stats
    defer {
      // Mirrored channels: their history is on their owners.
      for (channel, owner) in reply.elsewhere {
        if settings.format == .json {
          Output.write("{\"channel\":\"\(channel)\",\"owner\":\"\(owner)\"}\n")
        } else {
          Output.write("\(channel): history is kept on \(owner)\n")
        }
      }
    }
    switch settings.format {
    case .json:
      Output.write(stats.map { StatsText.json($0) + "\n" }.joined())
    case .plain:
      Output.write(stats.map { StatsText.plain($0) + "\n" }.joined())
    case .term:
      let panel = StatsPanel(stats: stats, width: settings.width)
      if settings.motion && !stats.isEmpty, let countUp {
        try countUp(panel)
      } else {
        Output.write(panel.lines(at: 0, countUp: CountUp(motion: false)).map { $0 + "\n" }.joined())
      }
    }
  }
}
