import BadgeCore

/// An exec source's decisions: when its command runs, what its output counts, and its state.
///
/// - **Interval**: a run at start, on every recount (connection, resume), then `interval_s`
///   after each run ends; a recount asked for during a run runs once after it. The count is the
///   run's last non-empty line (`CountLine`).
/// - **Follow**: the command runs for good, each line a count; when it exits it is started
///   again after `Backoff` (1 s doubling to 5 min, reset after 60 s of life), the source
///   `retrying` meanwhile. A line too long stops it.
///
/// A line that is no count leaves the count as it was and puts the source in error with the
/// line quoted; the next good one clears it. A command that cannot be started is an error
/// (interval) or a restart with back-off (follow) with the reason, reported once, not per try.
/// The choices the design left open, made here: its times are boot time, so an interval that
/// passed in a suspend is due at once, and a run that timed out is an error (`did not finish
/// in time`) whatever it printed.
struct ExecSource {
  let name: String
  let settings: ExecSettings
  let channel: ChannelName
  private(set) var running = false
  private var again = false
  private var lines = FollowLines()
  private var backoff = Backoff(initial: 1_000_000, maximum: 300_000_000)
  private var startedAt: UInt64 = 0
  /// When the next run or restart is due.
  private(set) var due: UInt64?

  /// How long a followed command must live for its next exit to wait `initial` again.
  static let stableLife: UInt64 = 60_000_000

  init(name: String, settings: ExecSettings, channel: ChannelName) {
    self.name = name
    self.settings = settings
    self.channel = channel
  }

  private var follows: Bool { settings.schedule == .follow }

  /// Start, connection, resume: an interval command runs now (or once after the run under
  /// way); a followed one is started if it is not running and no restart is pending.
  mutating func recount(at time: SourceTime, into turn: inout SourceTurn) {
    if follows {
      guard !running, due == nil else { return }
      spawn(at: time, into: &turn)
    } else if running {
      again = true
    } else {
      spawn(at: time, into: &turn)
    }
  }

  /// A timer went off: the run or restart due, if it is.
  mutating func tick(at time: SourceTime, into turn: inout SourceTurn) {
    guard let due, due <= time.boottime, !running else {
      turn.wake = due
      return
    }
    self.due = nil
    spawn(at: time, into: &turn)
  }

  private mutating func spawn(at time: SourceTime, into turn: inout SourceTurn) {
    running = true
    again = false
    due = nil
    startedAt = time.boottime
    lines = FollowLines()
    turn.actions.append(.spawn(source: name))
  }

  /// What the command gave.
  mutating func result(_ result: ExecResult, at time: SourceTime, into turn: inout SourceTurn) {
    switch result {
    case .ran(let output, let timedOut):
      running = false
      if timedOut {
        turn.health = .error("did not finish in time")
      } else {
        take(CountLine.count(ofRun: output), into: &turn)
      }
      ranAgainOrLater(at: time, into: &turn)
    case .printed(let bytes):
      for count in lines.feed(bytes) { take(count, into: &turn) }
      if lines.overflowed { turn.actions.append(.kill(source: name)) }
    case .exited:
      restart(because: "the command exited", at: time, into: &turn)
    case .failedToStart(let why):
      guard follows else {
        running = false
        turn.health = .error(why)
        return ranAgainOrLater(at: time, into: &turn)
      }
      restart(because: why, at: time, into: &turn)
    }
  }

  /// An interval run ended: the run asked for meanwhile now, else the next `interval_s` later.
  private mutating func ranAgainOrLater(at time: SourceTime, into turn: inout SourceTurn) {
    if again {
      spawn(at: time, into: &turn)
    } else if case .interval(let seconds) = settings.schedule {
      due = time.boottime + UInt64(seconds) * 1_000_000
      turn.wake = due
    }
  }

  /// The followed command is gone: started again after the back-off, `retrying` meanwhile.
  private mutating func restart(because reason: String, at time: SourceTime, into turn: inout SourceTurn) {
    running = false
    if time.boottime >= startedAt + ExecSource.stableLife { backoff.succeeded() }
    let delay = backoff.nominal
    var steady = SteadyDelays()
    _ = backoff.failed(using: &steady)
    due = time.boottime + delay
    turn.wake = due
    turn.health = .retrying(at: time.wallMs + Int64(delay / 1000), because: reason)
  }

  private func take(_ count: Result<Int, CountLine.Refusal>, into turn: inout SourceTurn) {
    switch count {
    case .success(let value):
      turn.change(channel, .count(value))
      turn.health = .ok
    case .failure(let refusal):
      turn.health = .error(refusal.description)
    }
  }
}
