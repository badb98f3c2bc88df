import BadgeCore

/// Where an item lives: the watched directory (its tag, relative to the source's root) and its
/// name there, so that it can be marked read and a departure can be told from a stale one.
public struct ItemPlace: Hashable, Sendable {
  public var directory: WatchTag
  public var name: [UInt8]

  public init(directory: WatchTag, name: [UInt8]) {
    self.directory = directory
    self.name = name
  }
}

/// One identity and its place, as a listing found it.
public struct ListedItem: Hashable, Sendable {
  public var identity: [UInt8]
  public var place: ItemPlace

  public init(_ identity: [UInt8], at place: ItemPlace) {
    self.identity = identity
    self.place = place
  }
}

/// A change a source decided on for one of its channels' items; the core applies it to the
/// channel's `ItemSet`.
enum ItemChange: Equatable, Sendable {
  /// The item is there (set semantics).
  case add(ListedItem)
  /// The item is gone, if it still lives at `place` (a departure of a name it already left,
  /// as a rename's old name reported after its new one, is nothing).
  case remove([UInt8], at: ItemPlace)
  /// The item is gone wherever it is (a message read: its new name no longer counts).
  case drop([UInt8])
  /// A recount: the channel holds exactly these items.
  case replace([ListedItem])
  /// A channel counted by a number alone now counts this.
  case count(Int)
}

/// What one input made a source decide: its actions in order, the changes to its channels'
/// items in order, and its new state if it changed.
struct SourceTurn {
  var actions: [SourceAction] = []
  var changes: [(channel: ChannelName, change: ItemChange)] = []
  var health: SourceHealth.State?
  /// When the source wants `tick` next (boot time, microseconds): a run or a restart due.
  var wake: UInt64?
  /// Counts its channels must hold once the changes are in, else the source recounts.
  var expected: [(channel: ChannelName, count: Int)] = []

  mutating func change(_ channel: ChannelName, _ change: ItemChange) { changes.append((channel, change)) }
}

/// Paths as bytes.
enum BytePath {
  static let slash = UInt8(ascii: "/")

  /// `base/relative`; either alone when the other is empty.
  static func join(_ base: [UInt8], _ relative: [UInt8]) -> [UInt8] {
    if base.isEmpty { return relative }
    return relative.isEmpty ? base : base + [slash] + relative
  }

  /// A config's path with `~/` made absolute with `home`.
  static func expand(_ path: String, home: [UInt8]) -> [UInt8] {
    let bytes = Array(path.utf8)
    let trimmed = bytes.count > 1 && bytes.last == slash ? Array(bytes.dropLast()) : bytes
    return trimmed.starts(with: Array("~/".utf8)) ? home + trimmed.dropFirst() : trimmed
  }

  /// The directory holding `path`, and `path`'s last component.
  static func split(_ path: [UInt8]) -> (parent: [UInt8], name: [UInt8]) {
    guard let cut = path.lastIndex(of: slash) else { return ([], path) }
    return (cut == 0 ? [slash] : Array(path[..<cut]), Array(path[(cut + 1)...]))
  }
}

/// `Backoff`'s delays without their jitter: a restart's or a retry's time is then exact, as
/// the status line (`retry_at=`) says it.
struct SteadyDelays: RandomNumberGenerator {
  mutating func next() -> UInt64 { 0 }
}
