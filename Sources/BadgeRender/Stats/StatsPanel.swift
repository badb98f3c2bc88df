import BadgeCore

/// Channels' statistics drawn for a terminal at one instant of their count-up: per channel a
/// horizontal bar of its arrivals (against the busiest channel), its totals, and a column chart
/// of its arrivals per day. `badgectl stats` prints it; a dashboard can draw it in a window.
///
/// Every field has the width its final value needs from the first frame on, so numbers count
/// up in place and nothing beside them moves.
public struct StatsPanel: Sendable {
  public var stats: [ChannelStats]
  /// Columns available.
  public var width: Int

  /// The column titles of the numbers, in order.
  static let titles = ["arrivals", "clears", "peak"]
  /// The narrowest bar worth drawing; below it numbers go compact to make room.
  static let minimumBar = 8
  static let maximumName = 24

  public init(stats: [ChannelStats], width: Int) {
    self.stats = stats
    self.width = max(width, 20)
  }

  /// The panel's lines at `time`, with every number and bar where `countUp` has them then.
  public func lines(at time: Double, countUp: CountUp) -> [String] {
    guard let first = stats.first else { return ["No history."] }
    let layout = Layout(self)
    var lines = [header(first), String(repeating: " ", count: layout.barStart + layout.barWidth) + layout.titleRow]
    let busiest = stats.map(\.totals.arrivals).max() ?? 0
    for channel in stats {
      let totals = channel.totals
      let name = layout.name(channel.channel)
      let fraction = busiest > 0 ? Double(totals.arrivals) / Double(busiest) : 0
      let bar = BlockGlyphs.bar(countUp.fraction(fraction, at: time), width: layout.barWidth)
      let numbers = zip([totals.arrivals, totals.clears, totals.peak], layout.fieldWidths).map { value, width in
        " " + NumberText.padded(layout.text(countUp.count(value, at: time)), width: width)
      }.joined()
      lines.append(name + "  " + bar + numbers)
      if channel.days.count > 1 {
        let perColumn = BlockGlyphs.buckets(channel.days.map(\.arrivals), width: layout.barWidth)
        let maximum = Double(perColumn.max() ?? 0)
        let chart = BlockGlyphs.columns(
          perColumn.map { countUp.fraction(Double($0), at: time) }, maximum: maximum,
          cellWidth: max(1, layout.barWidth / max(perColumn.count, 1)))
        lines.append(String(repeating: " ", count: layout.barStart) + chart)
      }
    }
    return lines
  }

  /// `week  2026-11-24 to 2026-11-30`
  private func header(_ stats: ChannelStats) -> String {
    let from = CivilDate(dayNumber: stats.firstDay)
    let to = CivilDate(dayNumber: stats.lastDay)
    return stats.days.count == 1 ? "\(stats.period.rawValue)  \(to)" : "\(stats.period.rawValue)  \(from) to \(to)"
  }

  /// Where everything goes, from the final values.
  struct Layout {
    let nameWidth: Int
    let fieldWidths: [Int]
    let compact: Bool
    let barWidth: Int
    var barStart: Int { nameWidth + 2 }

    init(_ panel: StatsPanel) {
      let names = min(StatsPanel.maximumName, panel.stats.map(\.channel.count).max() ?? 0)
      var fields = Layout.fieldWidths(panel.stats, compact: false)
      let compact = Layout.barWidth(panel.width, names: names, fields: fields) < StatsPanel.minimumBar
      if compact { fields = Layout.fieldWidths(panel.stats, compact: true) }
      nameWidth = names
      fieldWidths = fields
      self.compact = compact
      barWidth = max(1, Layout.barWidth(panel.width, names: names, fields: fields))
    }

    /// Each number column as wide as its title or its widest final value.
    static func fieldWidths(_ stats: [ChannelStats], compact: Bool) -> [Int] {
      let columns = stats.map { [$0.totals.arrivals, $0.totals.clears, $0.totals.peak] }
      return StatsPanel.titles.indices.map { i in
        let widest = columns.map { (compact ? NumberText.compact($0[i]) : NumberText.grouped($0[i])).count }.max() ?? 0
        return max(StatsPanel.titles[i].count, widest)
      }
    }

    /// What is left for the bar: the name, two spaces, and each field after a space take the rest.
    static func barWidth(_ width: Int, names: Int, fields: [Int]) -> Int {
      width - names - 2 - fields.reduce(0) { $0 + $1 + 1 }
    }

    /// A channel name in its column: cut with `…` when too long, padded when short.
    func name(_ text: String) -> String {
      let shown = text.count > nameWidth ? String(text.prefix(nameWidth - 1)) + "…" : text
      return shown + String(repeating: " ", count: nameWidth - shown.count)
    }

    func text(_ value: Int) -> String {
      compact ? NumberText.compact(value) : NumberText.grouped(value)
    }

    /// The titles over the number columns.
    var titleRow: String {
      zip(StatsPanel.titles, fieldWidths).map { " " + NumberText.padded($0, width: $1) }.joined()
    }
  }
}
