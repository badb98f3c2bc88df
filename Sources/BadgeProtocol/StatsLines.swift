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
    appendTotals(stats, to: &out)
    for offset in stats.days.indices { appendDay(stats, at: offset, to: &out) }
  }

  /// The longest line: a name of at most 64 bytes, the keys, two dates and three numbers of
  /// at most 20 digits, with room to spare.
  static let maxLine = 256

  /// `STATS <channel> period=<period> from=<date> to=<date> arrivals=<n> clears=<n> peak=<n>`:
  /// the period's totals. A long reply writes a channel's lines one at a time, so that it can
  /// stop between any two (the lines are written on the stack, as state lines are).
  public static func appendTotals(_ stats: ChannelStats, to out: inout [UInt8]) {
    var name = stats.channel
    out.appendWritten(maxLength: maxLine) { line in
      line.write("STATS ")
      name.withUTF8 { line.write(UnsafeRawBufferPointer($0)) }
      line.write(" period=")
      switch stats.period {
      case .day: line.write("day")
      case .week: line.write("week")
      case .month: line.write("month")
      case .year: line.write("year")
      }
      line.write(" from=")
      write(CivilDate(dayNumber: stats.firstDay), to: &line)
      line.write(" to=")
      write(CivilDate(dayNumber: stats.lastDay), to: &line)
      write(stats.totals, to: &line)
    }
  }

  /// `DAY <channel> <date> arrivals=<n> clears=<n> peak=<n>`: the day at `offset` in the period.
  public static func appendDay(_ stats: ChannelStats, at offset: Int, to out: inout [UInt8]) {
    var name = stats.channel
    out.appendWritten(maxLength: maxLine) { line in
      line.write("DAY ")
      name.withUTF8 { line.write(UnsafeRawBufferPointer($0)) }
      line.write(0x20)
      write(CivilDate(dayNumber: stats.firstDay + offset), to: &line)
      write(stats.days[offset], to: &line)
    }
  }

  /// ` arrivals=<n> clears=<n> peak=<n>` and the line's end.
  private static func write(_ figures: DayFigures, to line: inout ByteWriter) {
    line.write(" arrivals=")
    line.write(decimal: figures.arrivals)
    line.write(" clears=")
    line.write(decimal: figures.clears)
    line.write(" peak=")
    line.write(decimal: figures.peak)
    line.write(0x0A)
  }

  /// `YYYY-MM-DD`, as `CivilDate.description` writes it.
  private static func write(_ date: CivilDate, to line: inout ByteWriter) {
    guard (0...9999).contains(date.year) else {
      Array(date.description.utf8).withUnsafeBytes { line.write($0) }
      return
    }
    writeDigits(date.year, 4, to: &line)
    line.write(UInt8(ascii: "-"))
    writeDigits(date.month, 2, to: &line)
    line.write(UInt8(ascii: "-"))
    writeDigits(date.day, 2, to: &line)
  }

  /// `value` (0 to 10^count - 1) in exactly `count` digits, zeros in front.
  private static func writeDigits(_ value: Int, _ count: Int, to line: inout ByteWriter) {
    var divisor = 1
    for _ in 1..<count { divisor *= 10 }
    var rest = value
    while divisor > 0 {
      line.write(UInt8(truncatingIfNeeded: rest / divisor) &+ 0x30)
      rest %= divisor
      divisor /= 10
    }
  }

  /// `STATS <channel> owner=<host>`: the line of a channel mirrored from another machine,
  /// whose history is kept by its owner (no `DAY` lines follow).
  public static func appendElsewhere(_ name: ChannelName, owner: String, to out: inout [UInt8]) {
    out.append(contentsOf: "STATS ".utf8)
    name.withBytes { out.append(contentsOf: $0) }
    out.append(contentsOf: " owner=".utf8)
    out.append(contentsOf: owner.utf8)
    out.append(0x0A)
  }

  /// One parsed line.
  public enum Line: Equatable, Sendable {
    /// `STATS <channel> owner=<host>`: the channel's history is kept on `owner`.
    case elsewhere(channel: String, owner: String)
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
      if words[0] == "STATS", let owner = fields["owner"], MirrorState.isValidHost(String(owner)) {
        self = .elsewhere(channel: channel, owner: String(owner))
        return
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
    /// The channels whose history is kept on another machine, with that machine, in reply order.
    public private(set) var elsewhere: [(channel: String, owner: String)] = []

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
        stats.append(
          ChannelStats(
            channel: channel, period: period, firstDay: from.dayNumber,
            days: Array(repeating: .zero, count: period.days)))
      case .day(let channel, let date, let figures)?:
        guard leftOut == 0, let last = stats.indices.last, stats[last].channel == channel else { return }
        let offset = date.dayNumber - stats[last].firstDay
        if stats[last].days.indices.contains(offset) { stats[last].days[offset] = figures }
      case .elsewhere(let channel, let owner)?:
        elsewhere.append((channel, owner))
      case nil:
        return
      }
    }
  }
}
