import BadgeCore

/// Channels' statistics as lines for programs and plain text: the end values, no motion.
public enum StatsText {
  /// One JSON object: the channel, the period, its dates, the totals and every day.
  ///
  /// `{"channel":"mail","period":"week","from":"2026-11-24","to":"2026-11-30","arrivals":12,
  /// "clears":3,"peak":7,"days":[{"date":"2026-11-24","arrivals":0,"clears":0,"peak":0},…]}`
  public static func json(_ stats: ChannelStats) -> String {
    var object = JSONObject()
    object.add("channel", stats.channel)
    object.add("period", stats.period.rawValue)
    object.add("from", CivilDate(dayNumber: stats.firstDay).description)
    object.add("to", CivilDate(dayNumber: stats.lastDay).description)
    object.addFigures(stats.totals)
    object.add(
      "days",
      objects: stats.days.enumerated().map { offset, figures in
        var day = JSONObject()
        day.add("date", CivilDate(dayNumber: stats.firstDay + offset).description)
        day.addFigures(figures)
        return day
      })
    return object.text
  }

  /// One line: `mail: 12 arrivals, 3 clears, peak 7 (2026-11-24 to 2026-11-30; per day 0 5 …)`.
  public static func plain(_ stats: ChannelStats) -> String {
    let t = stats.totals
    var line = "\(stats.channel): \(t.arrivals) arrivals, \(t.clears) clears, peak \(t.peak)"
    let to = CivilDate(dayNumber: stats.lastDay)
    if stats.days.count == 1 {
      line += " (\(to))"
    } else {
      let perDay = stats.days.map { String($0.arrivals) }.joined(separator: " ")
      line += " (\(CivilDate(dayNumber: stats.firstDay)) to \(to); arrivals per day \(perDay))"
    }
    return line
  }
}

extension JSONObject {
  mutating func addFigures(_ figures: DayFigures) {
    add("arrivals", figures.arrivals)
    add("clears", figures.clears)
    add("peak", figures.peak)
  }
}
