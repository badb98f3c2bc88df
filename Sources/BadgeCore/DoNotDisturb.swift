/// How badges show while do-not-disturb is on (`[daemon] dnd_badges`).
public enum DNDBadges: String, Sendable, CaseIterable {
  /// Silenced badges are not drawn (the default): counting goes on unseen.
  case hide
  /// Silenced badges are drawn in a dim colour.
  case dim
  /// Silenced badges are drawn as usual; formats still mark them (`dnd` class or field).
  case show
}

/// The daemon-wide do-not-disturb state.
public struct DoNotDisturb: Equatable, Sendable {
  /// Whether do-not-disturb is on.
  public var isOn: Bool
  /// When a timed do-not-disturb ends, in microseconds of the injected monotonic clock; 0 when
  /// it is off or lasts until turned off.
  public var until: UInt64

  public static let off = DoNotDisturb(isOn: false, until: 0)

  public init(isOn: Bool, until: UInt64) {
    self.isOn = isOn
    self.until = isOn ? until : 0
  }

  /// Milliseconds left at `now`, rounded up so a running timer never reads 0; 0 when it is off
  /// or untimed.
  public func leftMs(at now: UInt64) -> Int {
    guard isOn, until > now else { return 0 }
    return Int((until - now + 999) / 1000)
  }
}

/// Where and when do-not-disturb last changed, for sharing it between machines: the newest
/// change wins, by wall-clock time and then by host name, so every machine ends on the same one.
public struct DNDStamp: Equatable, Sendable, Comparable {
  /// Wall-clock milliseconds of the change.
  public var at: UInt64
  /// The machine where it changed.
  public var host: String
  /// Whether that machine is another than this one (`DND … from= at=`): its lines then say
  /// where it came from. Not compared.
  public var remote: Bool

  public init(at: UInt64, host: String, remote: Bool = false) {
    self.at = at
    self.host = host
    self.remote = remote
  }

  public static func < (a: DNDStamp, b: DNDStamp) -> Bool {
    a.at != b.at ? a.at < b.at : a.host < b.host
  }
}

/// The limits of do-not-disturb durations.
extension Limits {
  /// The longest timed do-not-disturb, in milliseconds: 30 days.
  public static let dndMs = 1...2_592_000_000
}
