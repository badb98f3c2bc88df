import BadgeCore
import Glibc

/// Which local day it is: days since 1970-01-01 in local time (`TZ`, else /etc/localtime),
/// the unit history counts in.
///
/// The answer is cached until the next local midnight, found with `mktime` so that daylight
/// saving days (23 or 25 hours long) end when the wall clock says, so asking on every request
/// costs one `time()`. A wall clock set back (or forward past the cached day) recomputes.
public struct LocalDayClock {
  private var day = 0
  /// The cached day runs over these wall-clock seconds.
  private var start = Int.max
  private var end = Int.min

  public init() {
    tzset()
  }

  /// The local day number now.
  public mutating func today() -> Int {
    let now = Int(time(nil))
    if now < start || now >= end { (day, start, end) = LocalDayClock.day(at: now) }
    return day
  }

  /// The local day number at wall-clock second `seconds`, and the seconds its day starts and
  /// ends at.
  public static func day(at seconds: Int) -> (day: Int, start: Int, end: Int) {
    var t = time_t(seconds)
    var local = tm()
    guard localtime_r(&t, &local) != nil else {
      // Out of the C library's range: UTC days, one second at a time.
      let day = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
      return (day, seconds, seconds + 1)
    }
    let date = CivilDate(year: Int(local.tm_year) + 1900, month: Int(local.tm_mon) + 1, day: Int(local.tm_mday))
    let start = midnight(of: local, addingDays: 0) ?? seconds
    let end = midnight(of: local, addingDays: 1) ?? seconds + 1
    return (date.dayNumber, min(start, seconds), max(end, seconds + 1))
  }

  /// The first second of the local day `days` after the one `local` is in.
  private static func midnight(of local: tm, addingDays days: Int32) -> Int? {
    var midnight = tm()
    midnight.tm_year = local.tm_year
    midnight.tm_mon = local.tm_mon
    midnight.tm_mday = local.tm_mday + days
    midnight.tm_isdst = -1
    let seconds = mktime(&midnight)
    return seconds == -1 ? nil : Int(seconds)
  }
}
