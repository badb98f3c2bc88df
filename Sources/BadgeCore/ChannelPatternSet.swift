/// Patterns matched together: whether a name matches any of them, at a cost that does not grow
/// with their number for the common shapes. Exact names are one set lookup; prefix patterns
/// (`app:*`, `notify:*`: a literal and one trailing `*`) are one lookup per distinct prefix
/// length, of the name's beginning of that length; only globs of other shapes (`*:mail`,
/// `a?c`) are tried one by one.
///
/// A watcher's patterns are kept so (`WATCH`), and so are a request's when it selects
/// channels by pattern (the `WATCH` snapshot, `STATS`).
public struct ChannelPatternSet: Sendable {
  /// The patterns, each once, in the order they were added.
  public private(set) var patterns: [ChannelPattern] = []
  private var exact: Set<ChannelName> = []
  private var prefixes: Set<NamePrefix> = []
  /// The lengths of `prefixes`, each once, shortest first: the beginnings of a name to look up.
  private var prefixLengths: [Int] = []
  /// The globs of other shapes.
  private var others: [ChannelPattern] = []

  public init() {}

  public init(_ patterns: some Sequence<ChannelPattern>) {
    for pattern in patterns { insert(pattern) }
  }

  public var isEmpty: Bool { patterns.isEmpty }
  public var count: Int { patterns.count }

  public func contains(_ pattern: ChannelPattern) -> Bool {
    if let name = pattern.exactName { return exact.contains(name) }
    if let prefix = pattern.prefix { return prefixes.contains(prefix) }
    return others.contains(pattern)
  }

  /// Adds `pattern` unless it is in the set already; returns whether it was added.
  @discardableResult
  public mutating func insert(_ pattern: ChannelPattern) -> Bool {
    if let name = pattern.exactName {
      guard exact.insert(name).inserted else { return false }
    } else if let prefix = pattern.prefix {
      guard prefixes.insert(prefix).inserted else { return false }
      if !prefixLengths.contains(prefix.count) {
        prefixLengths.append(prefix.count)
        prefixLengths.sort()
      }
    } else {
      guard !others.contains(pattern) else { return false }
      others.append(pattern)
    }
    patterns.append(pattern)
    return true
  }

  /// Whether `name` is one of the exact names.
  public func namesExactly(_ name: ChannelName) -> Bool { exact.contains(name) }

  /// Whether a glob of the set (a prefix pattern or another) matches `name`.
  public func globMatches(_ name: ChannelName) -> Bool {
    if !prefixLengths.isEmpty {
      for length in prefixLengths {
        guard length <= name.count else { break }
        if prefixes.contains(NamePrefix(name, length: length)) { return true }
      }
    }
    return others.contains { $0.matches(name) }
  }

  /// Whether any pattern of the set matches `name`.
  public func matches(_ name: ChannelName) -> Bool {
    (!exact.isEmpty && exact.contains(name)) || globMatches(name)
  }

  /// Whether the set has globs (so that names it does not give exactly may match).
  public var hasGlobs: Bool { !prefixes.isEmpty || !others.isEmpty }

  /// The exact names, in the order they were added.
  public var exactNames: [ChannelName] { patterns.compactMap(\.exactName) }
}
