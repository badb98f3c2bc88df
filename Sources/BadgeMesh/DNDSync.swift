import BadgeCore
import BadgeProtocol

/// Do-not-disturb as shared machines publish it on `<prefix>/dnd/state` (retained):
/// `{"on":true,"until":1764621800000,"at":1764620000123,"host":"desktop"}`.
public struct DNDState: Equatable, Sendable {
  public var on: Bool
  /// When a timed do-not-disturb ends, in wall-clock milliseconds; 0 when it lasts until
  /// turned off (and when it is off).
  public var until: Int64
  /// When the change was made, in wall-clock milliseconds.
  public var at: Int64
  /// The machine it was made on.
  public var host: String

  public init(on: Bool, until: Int64, at: Int64, host: String) {
    self.on = on
    self.until = on ? until : 0
    self.at = at
    self.host = host
  }

  /// The time of a state never changed on the machine that publishes it: the earliest a
  /// payload can say, so that any change made anywhere wins over it.
  public static let neverChanged: Int64 = 1

  /// What orders two changes: the later wins, and at the same millisecond the greater host (the
  /// daemon's order, `DNDStamp`; a time before 1970 orders as 1970, and none is ever made).
  public var stamp: DNDStamp { DNDStamp(at: UInt64(clamping: at), host: host) }

  public var payload: [UInt8] {
    Array(
      JSONValue.object([("on", .bool(on)), ("until", .integer(until)), ("at", .integer(at)), ("host", .string(host))])
        .encoded.utf8)
  }

  public init(payload: some Collection<UInt8>) throws(PayloadError) {
    let reader = try PayloadReader(payload)
    on = try reader.requiredBool("on")
    until = try reader.integer("until", in: .nonNegative) ?? 0
    at = try reader.required("at", in: 1...Int64.max)
    host = try reader.host("host")
    if !on { until = 0 }
  }
}

extension DNDRequest {
  /// What `<prefix>/dnd/set` asks for: `ON` or `OFF` (Home Assistant's switch), or
  /// `{"on":true,"until":<ms>}` for a timed one, as the daemon's request. A timed one's end
  /// (`until`, wall-clock milliseconds) becomes the milliseconds left of it at `nowMs`, which
  /// may be none or more than the daemon takes: the caller checks them against `Limits.dndMs`.
  public init(payload: some Collection<UInt8>, nowMs: Int64) throws(PayloadError) {
    if payload.elementsEqual("ON".utf8) {
      self = .on(ms: nil)
    } else if payload.elementsEqual("OFF".utf8) {
      self = .off
    } else {
      let reader = try PayloadReader(payload)
      try reader.onlyKeys(["on", "until"])
      if try reader.requiredBool("on") {
        self = .on(ms: try reader.integer("until", in: 1...Int64.max).map { Int($0 - nowMs) })
      } else {
        guard reader.object["until"] == nil else { throw PayloadError("'until' with 'on' false") }
        self = .off
      }
    }
  }
}

/// Last writer wins, for shared do-not-disturb: every machine applies a change it hears of
/// only when it is newer than the last one it applied or made, so all converge on the newest
/// change, whatever order the broker delivers them in.
///
/// A change made here is stamped no earlier than one past the newest it knows of, so that a
/// machine whose clock is behind still wins with a change made after the one it saw.
public struct DNDSync: Sendable {
  /// The newest change applied or made here.
  public private(set) var newest: DNDStamp?
  public let host: String

  public init(host: String) { self.host = host }

  /// A change made on this machine at `now` (wall-clock milliseconds): the state to publish.
  public mutating func made(on: Bool, until: Int64, now: Int64) -> DNDState {
    let at = max(now, Int64(clamping: (newest?.at ?? 0) + 1))
    let state = DNDState(on: on, until: until, at: at, host: host)
    newest = state.stamp
    return state
  }

  /// This machine's state as its daemon reports it when the bridge starts, stamped with when
  /// it was made there (`at`): the state to publish when it is newer than anything known here.
  /// Not restamped, unlike `made`: a change made while the bridge was away is as old as it is,
  /// and loses to a newer one another machine published meanwhile.
  public mutating func found(on: Bool, until: Int64, at: Int64) -> DNDState? {
    let state = DNDState(on: on, until: until, at: at, host: host)
    if let newest, state.stamp <= newest { return nil }
    newest = state.stamp
    return state
  }

  /// What to do with a state heard on the broker.
  public enum Decision: Equatable, Sendable {
    /// Newer than anything applied here: apply it.
    case apply
    /// This machine's own, heard back: nothing to do.
    case own
    /// Not newer than what was applied here.
    case stale
  }

  public mutating func heard(_ state: DNDState) -> Decision {
    if let newest, state.stamp <= newest { return state.host == host && state.stamp == newest ? .own : .stale }
    guard state.host != host else {
      // A change of ours from before a restart, newer than anything known: keep its stamp so
      // that later changes order after it, but there is nothing to apply.
      newest = state.stamp
      return .own
    }
    newest = state.stamp
    return .apply
  }
}
