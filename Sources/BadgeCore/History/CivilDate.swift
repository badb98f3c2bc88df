/// A calendar date (proleptic Gregorian) and its day number: days since 1970-01-01.
///
/// History is kept per local day; the daemon works out which day it is (BadgeSystem reads the
/// clock and the time zone) and everything else counts in day numbers, which this type turns
/// into the `YYYY-MM-DD` the protocol shows and back. Pure arithmetic (Howard Hinnant's
/// `days_from_civil` and `civil_from_days`), no calendar library.
public struct CivilDate: Equatable, Hashable, Sendable, Comparable, CustomStringConvertible {
  public var year: Int
  /// 1…12
  public var month: Int
  /// 1…31
  public var day: Int

  public init(year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  /// The date of day number `dayNumber` (0 is 1970-01-01).
  public init(dayNumber: Int) {
    let z = dayNumber + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  }

  /// Days since 1970-01-01.
  public var dayNumber: Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// Parses `YYYY-MM-DD` (four-digit year); `nil` for anything else, including dates that do
  /// not exist (`2026-02-30`).
  public init?(_ text: some StringProtocol) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
      let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
      (1...12).contains(m), (1...31).contains(d)
    else { return nil }
    let date = CivilDate(year: y, month: m, day: d)
    guard CivilDate(dayNumber: date.dayNumber) == date else { return nil }
    self = date
  }

  /// `2026-11-30`
  public var description: String {
    Self.padded(year, 4) + "-" + Self.padded(month, 2) + "-" + Self.padded(day, 2)
  }

  public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

  private static func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
