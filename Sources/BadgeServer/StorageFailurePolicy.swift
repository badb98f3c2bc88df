import BadgeCore
import BadgeLog
import BadgeProtocol

/// What the daemon does while the state cannot be saved, whatever failed (an append, a flush,
/// the deferred `everysec` flush, any step of a compaction): changes are refused with
/// `ERR failed`, reads keep working, a repair is tried once a second, and the log says what
/// failed once, that the first repair failed (if it did), and when saving works again.
public final class StorageFailurePolicy {
  /// How long after a failure, or a failed repair, the next repair is tried (microseconds).
  static let repairInterval: UInt64 = 1_000_000

  private var logger: Logger
  private let turn: Turn
  /// Why changes are refused; `nil` while the state can be saved.
  public private(set) var failure: (any Error)?
  /// When the next repair is due (monotonic microseconds): the daemon's repair timer is armed
  /// for it at the end of every turn. `nil` while nothing needs repairing.
  public private(set) var nextRepair: UInt64?
  /// How many failures were reported since saving last worked (the log names the first).
  public private(set) var failuresSinceLastSave = 0
  /// How many repairs failed since saving last worked.
  public private(set) var failedRepairs = 0

  init(logger: Logger, turn: Turn) {
    self.logger = logger
    self.turn = turn
  }

  public var isFailing: Bool { failure != nil }

  /// Storage failed: refuse changes until a repair succeeds. `consequence` says what it means
  /// for the changes at hand (for the log).
  public func failed(_ error: any Error, _ consequence: String) {
    failuresSinceLastSave += 1
    guard failure == nil else {
      logger.debug("\(error); still refusing changes.")
      return
    }
    failure = error
    logger.error("\(error); \(consequence) Refusing changes until the state can be saved.")
    nextRepair = turn.now + StorageFailurePolicy.repairInterval
  }

  /// Tries to make `changeLog` whole; on success changes are accepted again, else another try
  /// is due.
  func tryRepair(_ changeLog: (any ChangeLog)?) {
    guard failure != nil else { return }
    nextRepair = nil
    do {
      try changeLog?.repair()
    } catch {
      failedRepairs += 1
      if failedRepairs == 1 {
        logger.warning("Failed to repair the state folder: \(error); retrying every second.")
      } else {
        logger.debug("Repair failed: \(error); trying again.")
      }
      nextRepair = turn.now + StorageFailurePolicy.repairInterval
      return
    }
    failure = nil
    logger.notice("The state can be saved again after \(failedRepairs) failed repair(s); accepting changes.")
    failuresSinceLastSave = 0
    failedRepairs = 0
  }

  /// The reply to a change while saving fails, or `nil` when changes are accepted.
  var refusal: ProtocolError? {
    guard let failure else { return nil }
    return ProtocolError(.failed, "Changes are refused until the state can be saved again: \(failure)")
  }
}
