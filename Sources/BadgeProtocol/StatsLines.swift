import BadgeCore

/// The lines of a `STATS` reply, both ways: the daemon encodes them here, clients parse them
/// here, so the format lives in one file.
///
/// ```
/// STATS mail period=week from=2026-11-24 to=2026-11-30 arrivals=12 clears=3 peak=7
/// DAY mail 2026-11-24 arrivals=0 clears=0 peak=0
/// ```
/// One `STATS` line per channel, followed by one `DAY` line per day of the period, oldest first.
public enum StatsLines {
  /// Appends `stats` as one `STATS` line and its `DAY` lines.
  public static func append(_ stats: ChannelStats, to out: inout [UInt8]) {
    let totals = stats.totals
    var line = "STATS \(stats.channel) period=\(stats.period.rawValue)"
    line += " from=\(CivilDate(dayNumber: stats.firstDay)) to=\(CivilDate(dayNumber: stats.lastDay))"
    line += figures(totals) + "\n"
    for (offset, day) in stats.days.enumerated() {
      line += "DAY \(stats.channel) \(CivilDate(dayNumber: stats.firstDay + offset))" + figures(day) + "\n"
    }
    out.append(contentsOf: line.utf8)
  }

  private static func figures(_ f: DayFigures) -> String {
    " arrivals=\(f.arrivals) clears=\(f.clears) peak=\(f.peak)"
  }

  /// One parsed line.
  public enum Line: Equatable, Sendable {
    /// `STATS <channel> period= from= to=` and the totals.
    case totals(channel: String, period: StatsPeriod, from: CivilDate, to: CivilDate, DayFigures)
    /// `DAY <channel> <date>` and that day's figures.
    case day(channel: String, date: CivilDate, DayFigures)

    /// Parses one line of a reply; `nil` for a line that is neither (or is malformed). Fields
    /// are matched by name and unknown ones skipped, so later fields do not break a client. A
    /// line the daemon could not have sent is malformed too: a channel name that breaks the
    /// naming rules, or totals whose days are not exactly the period's.
    public init?(_ line: String) {
      let words = line.split(separator: " ")
      guard words.count >= 3, ChannelName(words[1]) != nil else { return nil }
      let channel = String(words[1])
      var fields: [Substring: Substring] = [:]
      for word in words.dropFirst(2) {
        guard let eq = word.firstIndex(of: "=") else { continue }
        fields[word[..<eq]] = word[word.index(after: eq)...]
      }
      guard let arrivals = fields["arrivals"].flatMap({ Int($0) }), arrivals >= 0,
        let clears = fields["clears"].flatMap({ Int($0) }), clears >= 0,
        let peak = fields["peak"].flatMap({ Int($0) }), peak >= 0
      else { return nil }
      let figures = DayFigures(arrivals: arrivals, clears: clears, peak: peak)
      switch words[0] {
      case "STATS":
        guard let period = fields["period"].flatMap({ StatsPeriod(rawValue: String($0)) }),
          let from = fields["from"].flatMap({ CivilDate($0) }), let to = fields["to"].flatMap({ CivilDate($0) }),
          to.dayNumber - from.dayNumber + 1 == period.days
        else { return nil }
        self = .totals(channel: channel, period: period, from: from, to: to, figures)
      case "DAY":
        guard let date = CivilDate(words[2]) else { return nil }
        self = .day(channel: channel, date: date, figures)
      default:
        return nil
      }
    }
  }

  /// Groups the data lines of a `STATS` reply, one at a time as they arrive, into one
  /// `ChannelStats` per channel in reply order, so that a client keeps the figures and never
  /// the lines. Lines that are not stats lines are skipped; a channel's days are placed by
  /// date, so a day the reply lacks reads as zero. At most `maxChannels` channels are kept:
  /// the lines of any after them are skipped, and `leftOut` counts those channels.
  public struct Collector: Sendable {
    public let maxChannels: Int
    /// The channels so far, in reply order.
    public private(set) var stats: [ChannelStats] = []
    /// How many channels past `maxChannels` were skipped.
    public private(set) var leftOut = 0

    public init(maxChannels: Int) {
      self.maxChannels = maxChannels
    }

    /// Takes in the next data line of the reply.
    public mutating func add(_ text: String) {
      switch Line(text) {
      case .totals(let channel, let period, let from, _, _)?:
        guard stats.count < maxChannels else {
          leftOut += 1
          return
        }
        stats.append(ChannelStats(
          channel: channel, period: period, firstDay: from.dayNumber,
          days: Array(repeating: .zero, count: period.days)))
      case .day(let channel, let date, let figures)?:
        guard leftOut == 0, let last = stats.indices.last, stats[last].channel == channel else { return }
        let offset = date.dayNumber - stats[last].firstDay
        if stats[last].days.indices.contains(offset) { stats[last].days[offset] = figures }
      case nil:
        return
      }
    }
  }
}
