/// Patterns matched together: whether a name matches any of them, at a cost that does not grow
/// with their number for the common shapes. Exact names are one set lookup; prefix patterns
/// (`app:*`, `notify:*`: a literal and one trailing `*`) are one lookup per distinct prefix
/// length, of the name's beginning of that length; only globs of other shapes (`*:mail`,
/// `a?c`) are tried one by one. A set of a few patterns (most `WATCH`es name one or two) is
/// simply scanned, and allocates nothing but its list.
///
/// A request's patterns are kept so when it selects channels by pattern (the `WATCH`
/// snapshot, `STATS`: every channel is matched against them). A watcher keeps its own
/// `unindexed`: the server finds a change's watchers through an index of its own, and a
/// watcher's set is only scanned to filter what it missed while behind, so an index per
/// watcher would hold every pattern twice.
public struct ChannelPatternSet: Sendable {
  /// The patterns, each once, in the order they were added.
  public private(set) var patterns: [ChannelPattern] = []
  /// Their index, once there are more than `scanned` of them (unless the set is `unindexed`).
  private var index: Index?
  private var indexes = true

  /// Up to this many patterns are scanned rather than indexed.
  static let scanned = 8

  /// The patterns by shape: exact names and prefixes to look up, the other globs to try.
  private struct Index {
    var exact: Set<ChannelName> = []
    var prefixes: Set<NamePrefix> = []
    /// The lengths of `prefixes`, each once, shortest first: the beginnings of a name to look up.
    var prefixLengths: [Int] = []
    var others: [ChannelPattern] = []

    func contains(_ pattern: ChannelPattern) -> Bool {
      if let name = pattern.exactName { return exact.contains(name) }
      if let prefix = pattern.prefix { return prefixes.contains(prefix) }
      return others.contains(pattern)
    }

    mutating func insert(_ pattern: ChannelPattern) {
      if let name = pattern.exactName {
        exact.insert(name)
      } else if let prefix = pattern.prefix {
        prefixes.insert(prefix)
        if !prefixLengths.contains(prefix.count) {
          prefixLengths.append(prefix.count)
          prefixLengths.sort()
        }
      } else {
        others.append(pattern)
      }
    }

    func globMatches(_ name: ChannelName) -> Bool {
      for length in prefixLengths {
        guard length <= name.count else { break }
        if prefixes.contains(NamePrefix(name, length: length)) { return true }
      }
      return others.contains { $0.matches(name) }
    }
  }

  public init() {}

  public init(_ patterns: some Sequence<ChannelPattern>) {
    for pattern in patterns { insert(pattern) }
  }

  /// The same patterns, scanned however many they are, now and after later insertions.
  public var unindexed: ChannelPatternSet {
    var set = self
    set.index = nil
    set.indexes = false
    return set
  }

  public var isEmpty: Bool { patterns.isEmpty }
  public var count: Int { patterns.count }

  public func contains(_ pattern: ChannelPattern) -> Bool {
    if let index { return index.contains(pattern) }
    return patterns.contains(pattern)
  }

  /// The set to look many patterns up in: this one, or for an unindexed set of more than
  /// `scanned` patterns an indexed copy, so that looking up each of another set's patterns is
  /// one pass over each set rather than their product.
  private var lookup: ChannelPatternSet {
    index == nil && count > Self.scanned ? ChannelPatternSet(patterns) : self
  }

  /// How many patterns the set would hold with those of `other` added.
  public func count(adding other: ChannelPatternSet) -> Int {
    let lookup = lookup
    return count + other.patterns.count { !lookup.contains($0) }
  }

  /// Adds the patterns of `other` that the set lacks, in their order, calling `added` with
  /// each and its place in the set.
  public mutating func formUnion(_ other: ChannelPatternSet, added: (ChannelPattern, Int) -> Void) {
    let lookup = lookup
    for pattern in other.patterns where !lookup.contains(pattern) {
      patterns.append(pattern)
      index?.insert(pattern)
      added(pattern, patterns.count - 1)
    }
    if index == nil && indexes && patterns.count > Self.scanned { buildIndex() }
  }

  /// Adds `pattern` unless it is in the set already; returns whether it was added.
  @discardableResult
  public mutating func insert(_ pattern: ChannelPattern) -> Bool {
    guard !contains(pattern) else { return false }
    patterns.append(pattern)
    if index != nil {
      index!.insert(pattern)
    } else if indexes && patterns.count > Self.scanned {
      buildIndex()
    }
    return true
  }

  private mutating func buildIndex() {
    var built = Index()
    for pattern in patterns { built.insert(pattern) }
    index = built
  }

  /// Whether `name` is one of the exact names.
  public func namesExactly(_ name: ChannelName) -> Bool {
    if let index { return index.exact.contains(name) }
    return patterns.contains { $0.exactName == name }
  }

  /// Whether a glob of the set (a prefix pattern or another) matches `name`.
  public func globMatches(_ name: ChannelName) -> Bool {
    if let index { return index.globMatches(name) }
    return patterns.contains { $0.isGlob && $0.matches(name) }
  }

  /// Whether any pattern of the set matches `name`.
  public func matches(_ name: ChannelName) -> Bool {
    if let index { return index.exact.contains(name) || index.globMatches(name) }
    return patterns.contains { $0.matches(name) }
  }

  /// Whether the set has globs (so that names it does not give exactly may match).
  public var hasGlobs: Bool { patterns.contains(where: \.isGlob) }

  /// Calls `body` with each exact name, in the order they were added.
  public func forEachExactName(_ body: (ChannelName) -> Void) {
    for pattern in patterns {
      if let name = pattern.exactName { body(name) }
    }
  }
}
