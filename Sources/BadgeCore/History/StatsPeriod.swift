/// The spans `STATS` reports on, each ending today (the local day of the request).
public enum StatsPeriod: String, CaseIterable, Sendable {
  /// Today only.
  case day
  /// The last 7 days, today included.
  case week
  /// The last 30 days, today included.
  case month
  /// The last 365 days, today included.
  case year

  /// How many days the period covers.
  public var days: Int {
    switch self {
    case .day: return 1
    case .week: return 7
    case .month: return 30
    case .year: return 365
    }
  }

  /// The day numbers of the period that ends on `today`, oldest first.
  public func range(endingOn today: Int) -> ClosedRange<Int> {
    (today - days + 1)...today
  }
}
