import BadgeCore
import BadgeProtocol
import BadgeRender

/// The dashboard's statistics panel for the selected channel: its period control (a small
/// segmented control of its own: day, week, month, year), the figures the daemon last sent, and
/// their count-up.
///
/// Figures come only from `STATS` requests, made when the panel opens, when the period or the
/// channel changes (each of which replays the count-up from 0 once the reply arrives) and when an
/// event shows the channel changed (a live refresh: the figures move straight to their new
/// values). Never on a timer. A refresh asked for while a request is in flight is sent once that
/// reply is in, so a burst of events makes at most one more request.
public struct StatsPane: Sendable {
  /// The periods, in the control's order.
  public static let periods = StatsPeriod.allCases
  /// The control's segments: each period's name.
  public static let controlLayout = SegmentLayout(contentWidths: periods.map(\.rawValue.count))

  public private(set) var period: StatsPeriod = .week
  /// The channel the panel shows.
  public private(set) var channel: String
  /// The control's capsule, on the selection spring.
  public private(set) var control: LinkedSelection
  /// The figures of `channel` over `period`, once they arrived.
  public private(set) var stats: ChannelStats?
  public private(set) var countUp: CountUp
  /// Whether the next reply replays the count-up (it answers an opening or a switch).
  private var replayNext = true
  /// Requests sent and not answered yet.
  private var inFlight = 0
  /// Whether a live refresh waits for the request in flight to be answered.
  private var refreshWanted = false

  /// Opens the panel on `channel`; `request` is what to send.
  public init(channel: String, noMotion: Bool) {
    self.channel = channel
    countUp = CountUp(motion: !noMotion)
    let index = StatsPane.periods.firstIndex(of: .week) ?? 0
    control = LinkedSelection(selected: index, layout: StatsPane.controlLayout, width: Int.max / 2, noMotion: noMotion)
  }

  /// The request for the figures shown: `STATS` of the period and the channel alone (`nil`
  /// for a name no request can carry; a state line the decoder read has none).
  var request: Request? { ChannelPattern(channel).map { .stats(period, [$0]) } }

  /// The first request, on opening.
  public mutating func opened() -> Request? { send(replay: true) }

  /// Switches to `period` at `time`: the control's capsule slides, new figures are asked for.
  public mutating func select(_ period: StatsPeriod, at time: Double) -> Request? {
    guard period != self.period, let index = StatsPane.periods.firstIndex(of: period) else { return nil }
    self.period = period
    control.select(index, layout: StatsPane.controlLayout, width: Int.max / 2, at: time)
    stats = nil
    return send(replay: true)
  }

  /// Moves the period by `delta` places (`[` and `]`), stopping at the ends.
  public mutating func step(by delta: Int, at time: Double) -> Request? {
    let index = (StatsPane.periods.firstIndex(of: period) ?? 0) + delta
    guard StatsPane.periods.indices.contains(index) else { return nil }
    return select(StatsPane.periods[index], at: time)
  }

  /// The selected channel is now `channel`: its figures, counted up anew.
  public mutating func show(_ channel: String) -> Request? {
    guard channel != self.channel else { return nil }
    self.channel = channel
    stats = nil
    return send(replay: true)
  }

  /// An event showed `channel` changed: a live refresh when it is the one shown.
  public mutating func changed(_ channel: String) -> Request? {
    guard channel == self.channel else { return nil }
    if inFlight > 0 {
      refreshWanted = true
      return nil
    }
    return send(replay: false)
  }

  /// A `STATS` reply arrived at `time` (`nil`: it was refused); returns the refresh that waited
  /// for it, if any.
  public mutating func arrived(_ reply: [ChannelStats]?, at time: Double) -> Request? {
    inFlight = max(0, inFlight - 1)
    if let figures = reply?.first, figures.channel == channel, figures.period == period {
      stats = figures
      if replayNext && inFlight == 0 {
        replayNext = false
        countUp.restart(at: time)
      }
    }
    guard inFlight == 0, refreshWanted else { return nil }
    refreshWanted = false
    return send(replay: false)
  }

  /// The connection ended: no reply will come; the next connection asks again.
  public mutating func connectionClosed() {
    inFlight = 0
    refreshWanted = false
  }

  /// The daemon is back: fresh figures, without a replay.
  public mutating func reconnected() -> Request? { send(replay: replayNext) }

  private mutating func send(replay: Bool) -> Request? {
    guard let request else { return nil }
    inFlight += 1
    if replay { replayNext = true }
    return request
  }

  /// When the panel must next be drawn after `time`; `nil` at rest.
  public func nextWake(after time: Double, interval: Double) -> Double? {
    var wakes: [Double] = []
    if let frame = countUp.nextFrame(after: time, interval: interval) { wakes.append(frame) }
    if let change = control.nextChange(after: time) {
      wakes.append(change <= time ? FrameRate.tick(after: time, interval: interval) : change)
    }
    return wakes.min()
  }
}
