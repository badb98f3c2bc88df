/// What a mirrored channel carries beside an ordinary channel's state: which machine owns it,
/// whether that owner is out of reach, and whether writes made here wait for it.
///
/// A mirrored channel's count, unseen items and total are the owner's (`MIRROR`), changed at
/// once by local writes, which wait in the forward outbox (`ForwardOutbox`) until the owner has
/// applied them. A local channel has none (`Channel.mirror` is `nil`).
public struct MirrorState: Equatable, Sendable {
  /// The host that owns the channel (`owner=`).
  public var owner: String
  /// True while the owner, or the broker, is out of reach (`STALE`, the bridge gone, a restart).
  public var stale: Bool
  /// While stale: the wall-clock second this machine last heard from the owner.
  public var since: Int
  /// True while the forward outbox holds writes to the channel (not saved: derived from it).
  public var pending: Bool
  /// The owner's `seq` of the state last put here (`oseq=`), for the bridge's ordering.
  public var ownerSeq: UInt64

  public init(owner: String, stale: Bool = false, since: Int = 0, pending: Bool = false, ownerSeq: UInt64 = 0) {
    self.owner = owner
    self.stale = stale
    self.since = since
    self.pending = pending
    self.ownerSeq = ownerSeq
  }

  /// A host name as `owner=`, `BRIDGE host=` and `STALE` take it: 1 to 64 characters of a
  /// channel name's (`A-Z a-z 0-9 . _ - :`), so it never splits a line.
  public static func isValidHost(_ text: String) -> Bool {
    RequestID.isValidToken(text)
  }

  /// The rule, as error messages state it.
  public static let hostRule = "host names are 1-64 characters from A-Z a-z 0-9 . _ : -"
}

/// The owner's state of a mirrored channel, as the bridge puts it here (`MIRROR`).
public struct MirrorUpdate: Equatable, Sendable {
  public var owner: String
  public var count: Int
  public var unseen: Int
  public var total: Int
  public var muted: Bool
  public var dot: Bool
  /// Milliseconds left of the owner's pulse window (0: resting).
  public var pulseMs: Int
  public var ownerSeq: UInt64
  /// The label as the owner drew it (`label=`): carried on the line, never shown, since the
  /// label of a mirror is drawn here from its count and the local display settings.
  public var label: String

  public init(
    owner: String, count: Int, unseen: Int, total: Int, muted: Bool, dot: Bool, pulseMs: Int = 0,
    ownerSeq: UInt64 = 0, label: String = ""
  ) {
    self.owner = owner
    self.count = count
    self.unseen = unseen
    self.total = total
    self.muted = muted
    self.dot = dot
    self.pulseMs = pulseMs
    self.ownerSeq = ownerSeq
    self.label = label
  }
}
