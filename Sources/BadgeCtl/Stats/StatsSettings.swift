import BadgeCore
import BadgePOSIX
import BadgeProtocol

/// What `badgectl stats` was asked for, resolved in its surroundings: the format, whether the
/// figures count up, and the width to lay them out in.
package struct StatsSettings {
  /// How the figures are written.
  enum Format: String, CaseIterable {
    /// Bars, a column chart and numbers that count up together in a terminal.
    case term
    /// One JSON object per channel, with totals and every day.
    case json
    /// One line of text per channel.
    case plain
  }

  var period: StatsPeriod
  var format: Format
  var patterns: [ChannelPattern]
  /// Whether the numbers and bars count up (a terminal, motion wanted); else end values.
  var motion: Bool
  /// Columns to lay the panel out in.
  var width: Int

  /// The facts about the surroundings the settings depend on.
  package struct Surroundings {
    var outputIsTerminal: Bool
    /// `NO_MOTION` is set.
    var noMotion: Bool
    /// `TERM=dumb`: no cursor movement.
    var dumbTerminal: Bool
    /// The terminal's width, if it says.
    var columns: Int?

    package static var current: Surroundings {
      Surroundings(
        outputIsTerminal: FileDescriptor.standardOutput.isTerminal,
        noMotion: Environment.value("NO_MOTION") != nil,
        dumbTerminal: Environment.value("TERM") == "dumb",
        columns: FileDescriptor.standardOutput.terminalColumns ?? Environment.value("COLUMNS").flatMap { Int($0) })
    }
  }

  /// The width used when the output does not say.
  static let defaultWidth = 80

  package init(_ command: StatsCommand, surroundings: Surroundings = .current) {
    period = command.period
    format = command.format ?? (surroundings.outputIsTerminal ? .term : .plain)
    patterns = command.patterns
    motion =
      format == .term && surroundings.outputIsTerminal && !surroundings.dumbTerminal
      && !surroundings.noMotion && !command.noMotion
    width = min(max(surroundings.columns ?? StatsSettings.defaultWidth, 20), 400)
  }

  /// The `STATS` request.
  var request: Request { .stats(period, patterns) }
}
