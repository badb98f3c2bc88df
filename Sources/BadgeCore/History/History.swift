/// Per channel and per local day: arrivals, clears and the day's peak count.
///
/// History belongs to the name, not to the channel's lifetime: a channel that is forgotten
/// keeps its days until they age out. Memory is bounded three ways: each channel keeps only
/// its days within `keptDays` (older ones go at compaction, and whenever the channel records a
/// new day), at most `maxChannels` names have history, and at most `maxEntries` days are kept
/// in all (past either limit, the name that has been quiet longest gives way).
///
/// A name's days are kept under its channel's slot in the store's table while the store keeps
/// the channel, so that the name is stored once and counting a change hashes nothing, and
/// under the name itself otherwise (a forgotten channel, or days loaded before their channel):
/// see `Place`. The store moves them as it makes and forgets channels (`adopt`, `release`) and
/// reads them by name through `Store.history`.
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

  /// Where a name's days are kept.
  enum Place: Equatable, Sendable {
    /// Under the slot of the name's channel in the store's table, while the store keeps it.
    case slot(Int)
    /// Under the name, while the store keeps no channel of that name.
    case name(ChannelName)

    /// The place of `name`'s days, whose channel is at `slot` in the store's table, if kept.
    init(slot: Int?, name: ChannelName) {
      self = slot.map { .slot($0) } ?? .name(name)
    }
  }

  /// The days of each channel the store keeps, by slot, oldest first (empty for a channel
  /// without history). As long as the store's table.
  private var held: [[HistoryDay]] = []
  /// The days of the names the store keeps no channel of, oldest first.
  private var loose: [ChannelName: [HistoryDay]] = [:]
  /// How many of `held` have days.
  private var heldNames = 0
  private var entries = 0

  public init(maxChannels: Int = defaultMaxChannels, maxEntries: Int = defaultMaxEntries) {
    self.maxChannels = max(1, maxChannels)
    self.maxEntries = max(1, maxEntries)
  }

  /// How many names have history.
  var nameCount: Int { heldNames + loose.count }

  /// How many (channel, day) entries are kept, across every channel.
  public var entryCount: Int { entries }

  /// Calls `body` with each place that has days, in no particular order.
  func forEachPlace(_ body: (Place) -> Void) {
    for slot in held.indices where !held[slot].isEmpty { body(.slot(slot)) }
    for name in loose.keys { body(.name(name)) }
  }

  /// Every kept day at `place`, oldest first.
  func days(at place: Place) -> [HistoryDay] {
    switch place {
    case .slot(let slot): held[slot]
    case .name(let name): loose[name] ?? []
    }
  }

  /// The entry at `place` on `day`, if that day had a change.
  func entry(at place: Place, on day: Int) -> HistoryDay? {
    let days = days(at: place)
    return History.index(of: day, in: days).map { days[$0] }
  }

  // MARK: - Following the store's slots

  /// The store keeps a channel called `name` at `slot`, the end of its table: the days kept
  /// under the name move there.
  mutating func adopt(_ name: ChannelName, at slot: Int) {
    precondition(slot == held.count, "a channel is kept at the end of the table")
    let days = loose.isEmpty ? [] : loose.removeValue(forKey: name) ?? []
    if !days.isEmpty { heldNames += 1 }
    held.append(days)
  }

  /// The store forgot the channel called `name` at `slot`, and moved its last one there: the
  /// days of `slot` go under the name, and those of the last slot to `slot`.
  mutating func release(_ name: ChannelName, at slot: Int) {
    let days = held[slot]
    if !days.isEmpty {
      heldNames -= 1
      loose[name] = days
    }
    let last = held.removeLast()
    if slot < held.count { held[slot] = last }
  }

  // MARK: - Changes

  /// What a day's entry was before `record` changed it, for undoing (`putBack`).
  public enum EntryBefore: Sendable {
    /// `record` changed nothing.
    case unchanged
    /// The day had no entry.
    case none
    case entry(HistoryDay)
  }

  /// Counts a change of the count kept at `place` from `before` to `after`, made on `day`;
  /// returns what the day's entry was before, and the entry as the change left it.
  ///
  /// The common case (a channel the store keeps, with an entry for `day`, its newest) finds the
  /// days by slot and changes the entry where it is kept, without copying the days.
  @discardableResult
  mutating func record(
    at place: Place, from before: Int, to after: Int, arrivals: Int, on day: Int
  ) -> (before: EntryBefore, after: HistoryDay?) {
    guard before != after || arrivals > 0 else { return (.unchanged, nil) }
    switch place {
    case .slot(let slot):
      if let updated = History.countNewest(&held[slot], day: day, from: before, to: after, arrivals: arrivals) {
        return (.entry(updated.old), updated.new)
      }
    case .name(let name):
      if let i = loose.index(forKey: name),
        let updated = History.countNewest(&loose.values[i], day: day, from: before, to: after, arrivals: arrivals)
      {
        return (.entry(updated.old), updated.new)
      }
    }
    let old = entry(at: place, on: day)
    var entry = old ?? HistoryDay(day: day, figures: DayFigures(peak: before), endCount: before)
    History.count(&entry, from: before, to: after, arrivals: arrivals)
    put(entry, at: place)
    return (old.map { .entry($0) } ?? .none, entry)
  }

  /// Counts the change in the newest of `days` when it is `day`'s entry; `nil` otherwise.
  private static func countNewest(
    _ days: inout [HistoryDay], day: Int, from before: Int, to after: Int, arrivals: Int
  ) -> (old: HistoryDay, new: HistoryDay)? {
    guard let last = days.indices.last, days[last].day == day else { return nil }
    let old = days[last]
    count(&days[last], from: before, to: after, arrivals: arrivals)
    return (old, days[last])
  }

  /// The one place a count change enters a day's figures: `arrivals` is what the change added
  /// to the channel's running total, the rise of the count for most writes, and a source's new
  /// items even when as many were read in the same report and the count stayed.
  private static func count(_ entry: inout HistoryDay, from before: Int, to after: Int, arrivals: Int) {
    if arrivals > 0 { entry.figures.arrivals = entry.figures.arrivals.addingSaturated(arrivals) }
    if after == 0 { entry.figures.clears = entry.figures.clears.addingSaturated(1) }
    entry.figures.peak = max(entry.figures.peak, after)
    entry.endCount = after
  }

  /// Puts back an entry as it was persisted (recovery), replacing the one of its day.
  mutating func restore(at place: Place, _ entry: HistoryDay) {
    put(entry, at: place)
  }

  /// Puts the entry at `place` of `day` back as `record` found it: undoing a change the disk
  /// refused.
  mutating func putBack(_ before: EntryBefore, at place: Place, on day: Int) {
    switch before {
    case .unchanged: return
    case .entry(let entry): put(entry, at: place)
    case .none:
      var days = days(at: place)
      guard let i = History.index(of: day, in: days) else { return }
      days.remove(at: i)
      set(days, at: place)
    }
  }

  /// Drops the days older than `keptDays` before `today`, and the names left with none.
  mutating func prune(today: Int) {
    var places: [Place] = []
    forEachPlace { places.append($0) }
    for place in places {
      var days = days(at: place)
      History.dropOld(&days, today: today)
      set(days, at: place)
    }
  }

  /// The figures of `name`, whose days are `kept`, for every day of `period` ending on `today`.
  static func stats(
    of name: ChannelName, kept: [HistoryDay], period: StatsPeriod, today: Int
  ) -> ChannelStats {
    let range = period.range(endingOn: today)
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

  private mutating func put(_ entry: HistoryDay, at place: Place) {
    if days(at: place).isEmpty, nameCount >= maxChannels { evictQuietest(sparing: place) }
    var days = days(at: place)
    if let last = days.last, last.day == entry.day {
      days[days.count - 1] = entry
    } else if let i = History.index(of: entry.day, in: days) {
      days[i] = entry
    } else {
      let at = days.firstIndex { $0.day > entry.day } ?? days.count
      days.insert(entry, at: at)
      if at == days.count - 1 { History.dropOld(&days, today: entry.day) }
    }
    set(days, at: place)
    while entries > maxEntries, nameCount > 1 { evictQuietest(sparing: place) }
  }

  /// The one write of the days: keeps `entries` and `heldNames` true; a name with no days
  /// left goes.
  private mutating func set(_ days: [HistoryDay], at place: Place) {
    switch place {
    case .slot(let slot):
      entries += days.count - held[slot].count
      if held[slot].isEmpty != days.isEmpty { heldNames += days.isEmpty ? -1 : 1 }
      held[slot] = days
    case .name(let name):
      entries += days.count - (loose[name]?.count ?? 0)
      loose[name] = days.isEmpty ? nil : days
    }
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

  private static func index(of day: Int, in days: [HistoryDay]) -> Int? {
    var (low, high) = (0, days.count)
    while low < high {
      let mid = (low + high) / 2
      if days[mid].day < day { low = mid + 1 } else { high = mid }
    }
    return low < days.count && days[low].day == day ? low : nil
  }

  /// Drops the history of the name whose last change is oldest, other than the one at `place`.
  private mutating func evictQuietest(sparing place: Place) {
    var quietest: (place: Place, day: Int)?
    forEachPlace { candidate in
      guard candidate != place else { return }
      let day = days(at: candidate).last?.day ?? .min
      if quietest == nil || day < quietest!.day { quietest = (candidate, day) }
    }
    if let quietest { set([], at: quietest.place) }
  }
}
