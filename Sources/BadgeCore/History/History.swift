/// Per channel and per local day: arrivals, clears and the day's peak count.
///
/// History belongs to the name, not to the channel's lifetime: a channel that is forgotten
/// keeps its days until they age out. Memory is bounded three ways: each channel keeps only
/// its days within `keptDays` (older ones go at compaction, and whenever the channel records a
/// new day), at most `maxChannels` names have history, and at most `maxEntries` days are kept
/// in all (past either limit, the name that has been quiet longest gives way).
///
/// Pure: the day number comes from the caller, which reads the clock and the time zone.
public struct History: Sendable {
  /// How many days back history is kept: more than the longest period, a year.
  public static let keptDays = 400
  /// The most channels with history at once, by default.
  public static let defaultMaxChannels = 20_000
  /// The most (channel, day) entries at once, by default: what bounds history's memory and the
  /// snapshot's size.
  public static let defaultMaxEntries = 1_000_000

  public let maxChannels: Int
  public let maxEntries: Int

  /// Each channel's days with changes, oldest first. Written only through `set(_:for:)`, which
  /// keeps `entries` true.
  private var channels: [ChannelName: [HistoryDay]] = [:]
  private var entries = 0

  public init(maxChannels: Int = defaultMaxChannels, maxEntries: Int = defaultMaxEntries) {
    self.maxChannels = max(1, maxChannels)
    self.maxEntries = max(1, maxEntries)
  }

  /// The names with history, sorted.
  public var names: [ChannelName] { channels.keys.sorted() }

  /// Calls `body` with each name with history, in no particular order: a long `STATS` reply
  /// takes the next names it shows from here a batch at a time, without sorting them all.
  public func forEachName(_ body: (ChannelName) -> Void) {
    for name in channels.keys { body(name) }
  }

  /// Whether `name` has history.
  public func hasDays(_ name: ChannelName) -> Bool { channels[name] != nil }

  /// How many (channel, day) entries are kept, across every channel.
  public var entryCount: Int { entries }

  /// Every kept day of `name`, oldest first.
  public func days(of name: ChannelName) -> [HistoryDay] { channels[name] ?? [] }

  /// The entry of `name` on `day`, if that day had a change.
  public func entry(of name: ChannelName, on day: Int) -> HistoryDay? {
    guard let days = channels[name], let i = index(of: day, in: days) else { return nil }
    return days[i]
  }

  /// What a day's entry was before `record` changed it, for undoing (`putBack`).
  public enum EntryBefore: Sendable {
    /// `record` changed nothing.
    case unchanged
    /// The day had no entry.
    case none
    case entry(HistoryDay)
  }

  /// Counts a change of `name`'s count from `before` to `after`, made on `day`; returns what
  /// the day's entry was before, and the entry as the change left it.
  ///
  /// The common case (the name already has an entry for `day`, its newest) hashes the name
  /// once and changes the entry where it is kept, without copying the name's days.
  @discardableResult
  public mutating func record(
    _ name: ChannelName, from before: Int, to after: Int, on day: Int
  ) -> (before: EntryBefore, after: HistoryDay?) {
    guard before != after else { return (.unchanged, nil) }
    if let i = channels.index(forKey: name) {
      let updated: (old: HistoryDay, new: HistoryDay)? = History.countNewest(
        &channels.values[i], day: day, from: before, to: after)
      if let updated { return (.entry(updated.old), updated.new) }
    }
    let old = entry(of: name, on: day)
    var entry = old ?? HistoryDay(day: day, figures: DayFigures(peak: before), endCount: before)
    History.count(&entry, from: before, to: after)
    put(entry, for: name)
    return (old.map { .entry($0) } ?? .none, entry)
  }

  /// Counts the change in the newest of `days` when it is `day`'s entry; `nil` otherwise.
  private static func countNewest(
    _ days: inout [HistoryDay], day: Int, from before: Int, to after: Int
  ) -> (old: HistoryDay, new: HistoryDay)? {
    guard let last = days.indices.last, days[last].day == day else { return nil }
    let old = days[last]
    count(&days[last], from: before, to: after)
    return (old, days[last])
  }

  /// The one place a count change enters a day's figures.
  private static func count(_ entry: inout HistoryDay, from before: Int, to after: Int) {
    if after > before { entry.figures.arrivals = entry.figures.arrivals.addingSaturated(after - before) }
    if after == 0 { entry.figures.clears = entry.figures.clears.addingSaturated(1) }
    entry.figures.peak = max(entry.figures.peak, after)
    entry.endCount = after
  }

  /// Puts back an entry as it was persisted (recovery), replacing the one of its day.
  public mutating func restore(_ name: ChannelName, _ entry: HistoryDay) {
    put(entry, for: name)
  }

  /// Puts `name`'s entry of `day` back as `record` found it: undoing a change the disk refused.
  public mutating func putBack(_ before: EntryBefore, of name: ChannelName, on day: Int) {
    switch before {
    case .unchanged: return
    case .entry(let entry): put(entry, for: name)
    case .none:
      guard var days = channels[name], let i = index(of: day, in: days) else { return }
      days.remove(at: i)
      set(days, for: name)
    }
  }

  /// Drops the days older than `keptDays` before `today`, and the names left with none.
  public mutating func prune(today: Int) {
    for name in Array(channels.keys) {
      var days = channels[name]!
      History.dropOld(&days, today: today)
      set(days, for: name)
    }
  }

  /// `name`'s figures for every day of `period` ending on `today`.
  public func stats(of name: ChannelName, period: StatsPeriod, today: Int) -> ChannelStats {
    let range = period.range(endingOn: today)
    let kept = channels[name] ?? []
    var figures: [DayFigures] = []
    figures.reserveCapacity(range.count)
    // The count carried into the period: the end of the last changed day before it.
    var i = kept.firstIndex { $0.day >= range.lowerBound } ?? kept.count
    var carried = i > 0 ? kept[i - 1].endCount : 0
    for day in range {
      if i < kept.count, kept[i].day == day {
        figures.append(kept[i].figures)
        carried = kept[i].endCount
        i += 1
      } else {
        figures.append(DayFigures(peak: carried))
      }
    }
    return ChannelStats(channel: name.description, period: period, firstDay: range.lowerBound, days: figures)
  }

  // MARK: - Internals

  private mutating func put(_ entry: HistoryDay, for name: ChannelName) {
    if channels[name] == nil, channels.count >= maxChannels { evictQuietest(sparing: name) }
    var days = channels[name] ?? []
    if let last = days.last, last.day == entry.day {
      days[days.count - 1] = entry
    } else if let i = index(of: entry.day, in: days) {
      days[i] = entry
    } else {
      let at = days.firstIndex { $0.day > entry.day } ?? days.count
      days.insert(entry, at: at)
      if at == days.count - 1 { History.dropOld(&days, today: entry.day) }
    }
    set(days, for: name)
    while entries > maxEntries, channels.count > 1 { evictQuietest(sparing: name) }
  }

  /// The one write of `channels`: a name with no days left goes.
  private mutating func set(_ days: [HistoryDay], for name: ChannelName) {
    entries += days.count - (channels[name]?.count ?? 0)
    channels[name] = days.isEmpty ? nil : days
  }

  /// Drops the days older than the kept window, but keeps the newest of them when it ended
  /// above 0: its count is what the first kept days held.
  private static func dropOld(_ days: inout [HistoryDay], today: Int) {
    let oldest = today - keptDays + 1
    guard let first = days.first, first.day < oldest else { return }
    let old = days.firstIndex { $0.day >= oldest } ?? days.count
    let keepCarry = days[old - 1].endCount > 0 ? 1 : 0
    days.removeFirst(old - keepCarry)
  }

  private func index(of day: Int, in days: [HistoryDay]) -> Int? {
    var (low, high) = (0, days.count)
    while low < high {
      let mid = (low + high) / 2
      if days[mid].day < day { low = mid + 1 } else { high = mid }
    }
    return low < days.count && days[low].day == day ? low : nil
  }

  /// Drops the history of the name whose last change is oldest, other than `name`.
  private mutating func evictQuietest(sparing name: ChannelName) {
    let quietest = channels.filter { $0.key != name }
      .min { ($0.value.last?.day ?? .min) < ($1.value.last?.day ?? .min) }
    if let quietest { set([], for: quietest.key) }
  }
}
