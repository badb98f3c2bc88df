import BadgeCore

/// Records every change before its reply is sent: the seam where persistence plugs in (the
/// daemon's `Persistence`; in tests, a log in memory that fails on demand).
///
/// Its failures are only described (in the log, in `ERR failed` replies), never inspected, so
/// any error does.
public protocol ChangeLog: AnyObject {
  /// Called for every change, in order, with the channel as it is after the change, its
  /// history entry of the day the change was counted on (`nil`: none), and the id of the
  /// request that made it (`nil`: none), which must be saved with the change or not at all.
  /// With a mirrored channel's write to forward to its owner (`forward`), saved in the same
  /// record, so that a power cut keeps or loses the two together.
  func record(_ channel: Channel, day: HistoryDay?, id: RequestID?, forward: Forwarded?)
  /// Called when a request turned do-not-disturb on or off (not for its end by time), with the
  /// request's id, saved with the change or not at all.
  func record(_ dnd: DoNotDisturb, id: SavedRequestID?)
  /// Called when a request id was saved with no change to ride in (`Store.saveID`).
  func record(_ id: SavedRequestID)
  /// Called when `DELIVERED` took a write out of the forward outbox.
  func recordDelivered(_ id: String)
  /// Called once per loop turn, before anything of that turn is sent: saves the turn's records
  /// or throws, having saved none of them.
  func commit() throws
  /// Called after a failure, once a second until it succeeds: makes the log whole again.
  func repair() throws
  /// Where failures outside a commit are reported (the deferred `everysec` flush, a compaction
  /// after the turn's records were saved); set by `ServerCore` when the log is attached.
  var failures: StorageFailurePolicy? { get set }
}

extension ChangeLog {
  /// A change of a channel with no write to forward.
  public func record(_ channel: Channel, day: HistoryDay?, id: RequestID?) {
    record(channel, day: day, id: id, forward: nil)
  }
}
