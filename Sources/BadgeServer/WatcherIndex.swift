import BadgeCore

/// Who watches which channels, filed by pattern, so that finding the watchers of a change does
/// not try every pattern of every watcher: its exact name is one lookup, its beginnings one
/// lookup per length of prefix pattern filed (`app:*`, `notify:*`), and only globs of other
/// shapes are tried, each distinct glob once however many watch it. Watchers of every channel
/// (`WATCH` without patterns) are in a list of their own.
///
/// Each watcher is filed once per pattern. It keeps, per pattern, where its entry is in that
/// pattern's list (`Peer.firstSlot`, `moreSlots`), so that leaving takes its entries out in
/// constant time each, whatever the number of others watching the same patterns.
final class WatcherIndex<Client: Peer> {
  /// A watcher in the list of one of its patterns, `ordinal` the pattern's place in its set.
  struct Entry {
    let client: Client
    let ordinal: Int
  }

  /// The watchers of one pattern. The first is kept inline: a pattern most often has one
  /// watcher, and a thousand watchers of 256 patterns each would otherwise hold 256,000 lists.
  struct List {
    private var first: Entry?
    private var rest: [Entry] = []

    var count: Int { first == nil ? 0 : 1 + rest.count }
    var isEmpty: Bool { first == nil }

    subscript(i: Int) -> Entry {
      get { i == 0 ? first! : rest[i - 1] }
      set {
        if i == 0 { first = newValue } else { rest[i - 1] = newValue }
      }
    }

    mutating func append(_ entry: Entry) {
      if first == nil { first = entry } else { rest.append(entry) }
    }

    mutating func removeLast() -> Entry {
      guard rest.isEmpty else { return rest.removeLast() }
      defer { first = nil }
      return first!
    }

    /// Calls `body` with each watcher, in order (two plain loops: the fan-out's inner loop).
    @inline(__always)
    func forEach(_ body: (Client) -> Void) {
      guard let first else { return }
      body(first.client)
      for entry in rest { body(entry.client) }
    }
  }

  /// The watchers of every channel.
  private(set) var everything = List()
  private var exact: [ChannelName: List] = [:]
  private var prefixes: [NamePrefix: List] = [:]
  /// How many prefixes of each length (0 to 63) are filed, and the lengths in use, shortest
  /// first: the beginnings of a name that are looked up.
  private var prefixLengthUse = [Int](repeating: 0, count: ChannelName.maxLength + 1)
  private var prefixLengths: [Int] = []
  /// The globs of other shapes with their watchers, and where each glob is in that list.
  private var others: [(pattern: ChannelPattern, entries: List)] = []
  private var otherPlaces: [ChannelPattern: Int] = [:]
  /// Counts lookups: a watcher reached through several of its patterns in one lookup is
  /// visited once (`Peer.visit` holds the last lookup that visited it).
  private var visit: UInt64 = 0

  /// Files `client` as a watcher of every channel.
  func addEverything(_ client: Client) {
    Self.append(Entry(client: client, ordinal: 0), to: &everything)
  }

  /// Files `client` under `pattern`, the pattern at `ordinal` in its set.
  func add(_ client: Client, _ pattern: ChannelPattern, ordinal: Int) {
    let entry = Entry(client: client, ordinal: ordinal)
    if let name = pattern.exactName {
      Self.append(entry, to: &exact[name, default: List()])
    } else if let prefix = pattern.prefix {
      if prefixLengthUse[prefix.count] == 0 {
        prefixLengths.append(prefix.count)
        prefixLengths.sort()
      }
      prefixLengthUse[prefix.count] += 1
      Self.append(entry, to: &prefixes[prefix, default: List()])
    } else if let place = otherPlaces[pattern] {
      Self.append(entry, to: &others[place].entries)
    } else {
      otherPlaces[pattern] = others.count
      others.append((pattern, List()))
      Self.append(entry, to: &others[others.count - 1].entries)
    }
  }

  /// Takes `client` out of every list it is filed in (`patterns` are its patterns: empty for
  /// a watcher of every channel).
  func removeAll(_ client: Client, _ patterns: ChannelPatternSet) {
    if patterns.isEmpty {
      Self.remove(client, ordinal: 0, from: &everything)
    } else {
      for (ordinal, pattern) in patterns.patterns.enumerated() { remove(client, pattern, ordinal: ordinal) }
      Self.shrinkIfSparse(&exact)
      Self.shrinkIfSparse(&prefixes)
      Self.shrinkIfSparse(&otherPlaces)
    }
    client.moreSlots = []
  }

  /// Gives a table's room back once it holds under an eighth of what it has room for: a
  /// dictionary keeps its capacity when keys are removed, and the watchers of many patterns
  /// that left would hold their index until the daemon ends.
  private static func shrinkIfSparse<Key: Hashable, Value>(_ table: inout [Key: Value]) {
    guard table.capacity > 64, table.count < table.capacity / 8 else { return }
    var smaller = [Key: Value](minimumCapacity: table.count)
    for (key, value) in table { smaller[key] = value }
    table = smaller
  }

  private func remove(_ client: Client, _ pattern: ChannelPattern, ordinal: Int) {
    if let name = pattern.exactName {
      Self.remove(client, ordinal: ordinal, from: &exact[name]!)
      if exact[name]!.isEmpty { exact[name] = nil }
    } else if let prefix = pattern.prefix {
      Self.remove(client, ordinal: ordinal, from: &prefixes[prefix]!)
      if prefixes[prefix]!.isEmpty { prefixes[prefix] = nil }
      prefixLengthUse[prefix.count] -= 1
      if prefixLengthUse[prefix.count] == 0 { prefixLengths.removeAll { $0 == prefix.count } }
    } else {
      let place = otherPlaces[pattern]!
      Self.remove(client, ordinal: ordinal, from: &others[place].entries)
      guard others[place].entries.isEmpty else { return }
      otherPlaces[pattern] = nil
      let last = others.removeLast()
      if place < others.count {
        others[place] = last
        otherPlaces[last.pattern] = place
      }
    }
  }

  private static func append(_ entry: Entry, to list: inout List) {
    setSlot(of: entry, list.count)
    list.append(entry)
  }

  /// Takes `client`'s entry out of `list`: the last entry takes its place.
  private static func remove(_ client: Client, ordinal: Int, from list: inout List) {
    let slot = ordinal == 0 ? client.firstSlot : client.moreSlots[ordinal - 1]
    assert(list[slot].client === client && list[slot].ordinal == ordinal, "a watcher's slot in a pattern's list")
    let last = list.removeLast()
    if slot < list.count {
      list[slot] = last
      setSlot(of: last, slot)
    }
  }

  /// Notes that `entry` is at `slot` in its pattern's list.
  private static func setSlot(of entry: Entry, _ slot: Int) {
    let client = entry.client
    guard entry.ordinal > 0 else {
      client.firstSlot = slot
      return
    }
    if client.moreSlots.count < entry.ordinal {
      client.moreSlots.append(contentsOf: repeatElement(0, count: entry.ordinal - client.moreSlots.count))
    }
    client.moreSlots[entry.ordinal - 1] = slot
  }

  /// Calls `body` once for each watcher of `name` (without the watchers of every channel when
  /// `everything` is false), in no particular order.
  @inline(__always)
  func forEachWatcher(of name: ChannelName, everything includeEverything: Bool = true, _ body: (Client) -> Void) {
    if includeEverything {
      everything.forEach(body)
    }
    visit &+= 1
    let visit = visit
    if !exact.isEmpty, let list = exact[name] {
      // The first list: nobody was visited yet, and with no other list to look at, nobody
      // needs to be marked either.
      if prefixLengths.isEmpty && others.isEmpty {
        list.forEach(body)
      } else {
        list.forEach { client in
          client.visit = visit
          body(client)
        }
      }
    }
    for length in prefixLengths {
      guard length <= name.count else { break }
      if let list = prefixes[NamePrefix(name, length: length)] { Self.offer(list, visit, body) }
    }
    for i in others.indices where others[i].pattern.matches(name) { Self.offer(others[i].entries, visit, body) }
  }

  @inline(__always)
  private static func offer(_ list: List, _ visit: UInt64, _ body: (Client) -> Void) {
    list.forEach { client in
      guard client.visit != visit else { return }
      client.visit = visit
      body(client)
    }
  }
}
