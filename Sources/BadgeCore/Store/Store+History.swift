extension Store {
  /// History read by name (`STATS`, the snapshot).
  public var history: HistoryByName { HistoryByName(store: self) }

  /// Where the days of `name` are kept: under its channel's slot while the store keeps one.
  func historyPlace(of name: ChannelName) -> History.Place {
    History.Place(slot: slot(of: name), name: name)
  }
}

/// The store's history read by name: each name's days are found where the store keeps them
/// (`History.Place`), under its channel's slot or under the name.
public struct HistoryByName {
  let store: Store

  /// The names with history, sorted.
  public var names: [ChannelName] {
    var names: [ChannelName] = []
    forEachName { names.append($0) }
    return names.sorted()
  }

  /// Calls `body` with each name with history, in no particular order: a long `STATS` reply
  /// takes the next names it shows from here a batch at a time, without sorting them all.
  public func forEachName(_ body: (ChannelName) -> Void) {
    store.dayHistory.forEachPlace { place in
      switch place {
      case .slot(let slot): body(store.channels[slot].name)
      case .name(let name): body(name)
      }
    }
  }

  /// Whether `name` has history.
  public func hasDays(_ name: ChannelName) -> Bool { !days(of: name).isEmpty }

  /// Every kept day of `name`, oldest first.
  public func days(of name: ChannelName) -> [HistoryDay] {
    store.dayHistory.days(at: store.historyPlace(of: name))
  }

  /// The entry of `name` on `day`, if that day had a change.
  public func entry(of name: ChannelName, on day: Int) -> HistoryDay? {
    store.dayHistory.entry(at: store.historyPlace(of: name), on: day)
  }

  /// `name`'s figures for every day of `period` ending on `today`.
  public func stats(of name: ChannelName, period: StatsPeriod, today: Int) -> ChannelStats {
    History.stats(of: name, kept: days(of: name), period: period, today: today)
  }

  /// How many (channel, day) entries are kept, across every channel.
  public var entryCount: Int { store.dayHistory.entryCount }
}
