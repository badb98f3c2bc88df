import BadgeCore
import BadgeProtocol

/// Do-not-disturb as a machine publishes it on its `<prefix>/host/<host>/dnd` (retained): the
/// change its daemon is on, made there or on another machine (`host`):
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

/// One total order over do-not-disturb changes, for shared do-not-disturb: a change is greater
/// than another when it was made later (`at`, wall-clock milliseconds), or at the same
/// millisecond on a machine whose name sorts later (`DNDStamp`). Each machine publishes the
/// change its daemon is on (its effective state, retained on `<prefix>/host/<host>/dnd`) and
/// hands its daemon every greater change it hears of; the daemon takes one only when it is
/// greater than its own last, also when it leaves do-not-disturb as it is. So every machine
/// ends on the greatest change made anywhere, whatever order the broker delivers them in.
///
/// The daemon stamps this machine's changes (`DND` ... `at=`): no earlier than one past the last
/// change it took, so a change made after one seen wins also on a machine whose clock is
/// behind. The stamp is published as it is, never made anew here: the daemon and the other
/// machines weigh a change by the same stamp.
public struct DNDSync: Sendable {
  public let host: String
  /// What this machine's daemon last reported: the state published as this machine's.
  public private(set) var effective: DNDState?
  /// The greatest change heard of on the broker.
  public private(set) var greatestHeard: DNDState?
  /// The last change heard and handed to the daemon: when the daemon reports it, it is
  /// published as it was heard, its `until` the same on every machine.
  private var handed: DNDState?

  public init(host: String) { self.host = host }

  /// The daemon reported do-not-disturb (a change, its snapshot, or a timed one's end) at
  /// `nowMs`: the state to publish as this machine's, or `nil` when it is the change published
  /// already. A timed one's end is no change: its stamp stays, and every machine ends it at
  /// the `until` it was published with.
  public mutating func reported(on: Bool, leftMs: Int, from: String?, at: Int64?, nowMs: Int64) -> DNDState? {
    let stamp = DNDStamp(at: UInt64(clamping: at ?? DNDState.neverChanged), host: from ?? host)
    if let effective, effective.stamp == stamp { return nil }
    let state: DNDState
    if let handed, handed.stamp == stamp {
      state = handed
    } else {
      let until = on && leftMs > 0 ? nowMs + Int64(leftMs) : 0
      state = DNDState(on: on, until: until, at: Int64(clamping: stamp.at), host: stamp.host)
    }
    effective = state
    return state
  }

  /// A change heard on the broker (any machine's state, this one's too): whether it is greater
  /// than what the daemon is on and than what was handed to it, and so is for the daemon.
  public mutating func heard(_ state: DNDState) -> Bool {
    if greatestHeard.map({ $0.stamp < state.stamp }) ?? true { greatestHeard = state }
    return isNewer(state)
  }

  /// The change was handed to the daemon.
  public mutating func handing(_ state: DNDState) { handed = state }

  /// The greatest change heard, when the daemon is not on it or on a greater one: what to
  /// hand a daemon that has just become ready (what was heard while it was away, or handed to
  /// a connection that ended before it answered).
  public mutating func due() -> DNDState? {
    handed = nil
    guard let greatestHeard, isNewer(greatestHeard) else { return nil }
    return greatestHeard
  }

  private func isNewer(_ state: DNDState) -> Bool {
    if let effective, state.stamp <= effective.stamp { return false }
    if let handed, state.stamp <= handed.stamp { return false }
    return true
  }
}
