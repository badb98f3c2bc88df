/// What happened to one channel on one local day.
public struct DayFigures: Equatable, Sendable {
  /// The sum of the day's increases (`INCR 3` is 3 arrivals, `SET` from 2 to 5 is 3).
  public var arrivals: Int
  /// How many times the count went from above 0 to 0 (a `CLEAR` at 0 is no clear).
  public var clears: Int
  /// The highest count the channel held during the day.
  public var peak: Int

  public init(arrivals: Int = 0, clears: Int = 0, peak: Int = 0) {
    self.arrivals = arrivals
    self.clears = clears
    self.peak = peak
  }

  public static let zero = DayFigures()

  /// Folds in another day, as a period's totals do: arrivals and clears add up (saturating, so
  /// a year of extremes cannot trap), the peak is the higher one.
  public mutating func add(_ other: DayFigures) {
    arrivals = arrivals.addingSaturated(other.arrivals)
    clears = clears.addingSaturated(other.clears)
    peak = max(peak, other.peak)
  }
}

/// What history keeps of one channel on one day: the figures, and the count the day ended with
/// so far, which is what the channel held on the following days without changes (their peak).
public struct HistoryDay: Equatable, Sendable {
  /// Days since 1970-01-01, local time.
  public var day: Int
  public var figures: DayFigures
  public var endCount: Int

  public init(day: Int, figures: DayFigures, endCount: Int) {
    self.day = day
    self.figures = figures
    self.endCount = endCount
  }
}

/// One channel's statistics over a period: what a `STATS` reply holds for it.
public struct ChannelStats: Equatable, Sendable {
  public var channel: String
  public var period: StatsPeriod
  /// The day number of the period's first day.
  public var firstDay: Int
  /// One entry per day of the period, oldest first, days without changes included.
  public var days: [DayFigures]

  public init(channel: String, period: StatsPeriod, firstDay: Int, days: [DayFigures]) {
    self.channel = channel
    self.period = period
    self.firstDay = firstDay
    self.days = days
  }

  /// The day number of the period's last day (today, when the reply was made).
  public var lastDay: Int { firstDay + days.count - 1 }

  /// Arrivals and clears summed over the period, the highest peak.
  public var totals: DayFigures {
    days.reduce(into: DayFigures.zero) { $0.add($1) }
  }
}

extension Int {
  func addingSaturated(_ other: Int) -> Int {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? .max : sum
  }
}
