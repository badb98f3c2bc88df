import BadgeCore

/// A machine's claim to own a channel: its host and when it first claimed it.
public struct Claim: Equatable, Comparable, Sendable, CustomStringConvertible {
  public var host: String
  /// Wall-clock milliseconds since 1970.
  public var claimed: Int64

  public init(host: String, claimed: Int64) {
    self.host = host
    self.claimed = claimed
  }

  /// The earlier claim is the smaller; at the same millisecond, the smaller host.
  public static func < (a: Claim, b: Claim) -> Bool { (a.claimed, a.host) < (b.claimed, b.host) }

  public var description: String { "\(host) (claimed at \(claimed))" }
}

/// Who owns each channel, as this machine knows it: one owner per channel, the first claim
/// standing.
///
/// A retained state names its owner and claim. The first claim known for a channel stands; a
/// state naming another host is taken only when its claim is earlier (two machines that
/// claimed at once, before either saw the other: the smaller `(claimed, host)` wins, on every
/// machine alike), and is otherwise dropped, so nothing flips back and forth: a winner never
/// gives way to a later claim. An empty retained state releases the channel.
///
/// A claim no real machine could have made is refused, so that an early date cannot buy a
/// channel: one before `floor` (2024-01-01, before any bridge that claims existed) or more
/// than `maxAhead` past this machine's clock.
public struct Claims: Sendable {
  /// 2024-01-01T00:00Z, in milliseconds since 1970.
  public static let floor: Int64 = 1_704_067_200_000
  /// How far ahead of this machine's clock a claim may be: a day.
  public static let maxAhead: Int64 = 86_400_000

  /// Why `claimed` cannot be a real claim heard at `now`; `nil` when it can.
  public static func refusal(of claimed: Int64, now: Int64) -> String? {
    if claimed < floor { return "its claim (\(claimed)) is before 2024-01-01" }
    if claimed > now &+ maxAhead { return "its claim (\(claimed)) is more than a day ahead of this machine's clock" }
    return nil
  }

  /// This machine.
  public let host: String
  public private(set) var owners: [ChannelName: Claim] = [:]

  public init(host: String) { self.host = host }

  public func owner(of channel: ChannelName) -> Claim? { owners[channel] }

  /// Whether this machine holds the channel's claim.
  public func isHeldHere(_ channel: ChannelName) -> Bool { owners[channel]?.host == host }

  /// The channels this machine holds.
  public var held: [ChannelName] { owners.compactMap { $0.value.host == host ? $0.key : nil } }

  /// This machine claims `channel` at `now` unless an owner is known; the claim in force after.
  public mutating func claim(_ channel: ChannelName, now: Int64) -> Claim {
    if let known = owners[channel] { return known }
    let claim = Claim(host: host, claimed: now)
    owners[channel] = claim
    return claim
  }

  /// What a state naming `claim` as the owner of a channel means.
  public enum Verdict: Equatable, Sendable {
    /// The known owner (or its first known claim): take the state.
    case owner
    /// An earlier claim than the one known, which it replaces (`previous`: this machine's own
    /// when this machine gives way).
    case earlier(previous: Claim?)
    /// A later claim than the owner known: drop the state (when the known owner is this
    /// machine, publish its state again, so that the retained one names it).
    case later(owner: Claim)
    /// A claim no machine could have made (`refusal(of:now:)`): drop the state.
    case refused(String)
  }

  /// A state naming `claim`, heard at `now` (wall-clock milliseconds).
  public mutating func heard(_ channel: ChannelName, _ claim: Claim, now: Int64) -> Verdict {
    if let reason = Claims.refusal(of: claim.claimed, now: now) { return .refused(reason) }
    guard let known = owners[channel] else {
      owners[channel] = claim
      return .earlier(previous: nil)
    }
    if claim.host == known.host {
      // The same owner, perhaps claiming anew after forgetting (a restart while the broker
      // lost its retained state): still the owner, with the earlier of the two claims.
      owners[channel] = min(known, claim)
      return .owner
    }
    if claim < known {
      owners[channel] = claim
      return .earlier(previous: known)
    }
    return .later(owner: known)
  }

  /// The channel was released (an empty retained state); the claim there was.
  @discardableResult
  public mutating func release(_ channel: ChannelName) -> Claim? { owners.removeValue(forKey: channel) }
}
