/// What a token may do, as `TokenStore.authenticate` finds it.
public struct TokenAccess: Sendable, Equatable {
  /// Read-only tokens (wall displays) see; write tokens also change counts.
  public enum Level: String, Sendable, CaseIterable {
    case read, write
  }

  /// The token's id: the first 8 characters of its hash, as `badgectl web tokens` lists it.
  public var id: String
  public var level: Level

  public init(id: String, level: Level) {
    self.id = id
    self.level = level
  }

  public var canWrite: Bool { level == .write }
}
