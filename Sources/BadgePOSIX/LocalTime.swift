import Glibc

/// The local wall clock, for times people give (`until 18:00`).
public enum LocalTime {
  /// Milliseconds from now until the clock next reads `hour:minute` in the local time zone
  /// (today when that is still ahead, else tomorrow), at least 1.
  public static func millisecondsUntil(hour: Int, minute: Int) -> Int {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var seconds = now.tv_sec
    var fields = tm()
    localtime_r(&seconds, &fields)
    fields.tm_hour = Int32(hour)
    fields.tm_min = Int32(minute)
    fields.tm_sec = 0
    fields.tm_isdst = -1
    var target = mktime(&fields)
    if target <= now.tv_sec {
      fields.tm_mday += 1
      fields.tm_hour = Int32(hour)
      fields.tm_min = Int32(minute)
      fields.tm_isdst = -1
      target = mktime(&fields)
    }
    let ms = Int(target - now.tv_sec) * 1000 - Int(now.tv_nsec / 1_000_000)
    return max(1, ms)
  }
}
