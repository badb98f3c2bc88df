/// Patterns matched together: whether a name matches any of them, at a cost that does not grow
/// with their number for the common shapes. Exact names are one set lookup; prefix patterns
/// (`app:*`, `notify:*`: a literal and one trailing `*`) are one lookup per distinct prefix
/// length, of the name's beginning of that length; only globs of other shapes (`*:mail`,
/// `a?c`) are tried one by one. A set of a few patterns (most `WATCH`es name one or two) is
/// simply scanned, and allocates nothing but its list.
///
/// A watcher's patterns are kept so (`WATCH`), and so are a request's when it selects
/// channels by pattern (the `WATCH` snapshot, `STATS`).
public struct ChannelPatternSet: Sendable {
  /// The patterns, each once, in the order they were added.
  public private(set) var patterns: [ChannelPattern] = []
  /// Their index, once there are more than `scanned` of them.
  private var index: Index?

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

  public var isEmpty: Bool { patterns.isEmpty }
  public var count: Int { patterns.count }

  public func contains(_ pattern: ChannelPattern) -> Bool {
    if let index { return index.contains(pattern) }
    return patterns.contains(pattern)
  }

  /// Adds `pattern` unless it is in the set already; returns whether it was added.
  @discardableResult
  public mutating func insert(_ pattern: ChannelPattern) -> Bool {
    guard !contains(pattern) else { return false }
    patterns.append(pattern)
    if index != nil {
      index!.insert(pattern)
    } else if patterns.count > Self.scanned {
      var built = Index()
      for pattern in patterns { built.insert(pattern) }
      index = built
    }
    return true
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
