import BadgeClient
import BadgeCore
import BadgeLog
import BadgePOSIX
import BadgeProtocol
import BadgeSystem
import BadgeWeb

/// badged-web's one view of badged: a `DaemonClient` watching every channel, whose lines become
/// the current state (`WebState`, every new stream's snapshot) and the events every stream reads
/// (`EventRing`, each event formatted once).
///
/// A connection's snapshot is gathered whole before it replaces the state, so streams never see
/// half of one. A snapshot (the first, one after a gap, or one badged sends because it no longer
/// keeps the changes missed) starts a new epoch of the ring (`reset` and the snapshot), so a
/// stream reading along draws the state anew and a browser resuming with an id from before goes
/// by the new numbers. A connection after one was lost asks for the changes after the last one
/// taken (`WATCH since=`): replayed, they go into the ring as the change events they were. While
/// badged is away the streams get one `offline` event.
final class WebFeed {
  /// How many requests (the page's writes) may await badged's replies at once; a write beyond
  /// them is answered 503.
  static let requestLimit = 256

  private(set) var state = WebState()
  private(set) var ring: EventRing
  /// Whether badged's snapshot is in and the connection is up.
  private(set) var online = false
  let daemon: DaemonClient
  /// Called after the ring gained entries: the server resumes its waiting streams.
  var news: () -> Void = {}
  private let logger: Logger
  /// The snapshot being gathered, from a connection (or a gap) to its `OK watching`.
  private var gathering: [ChannelSnapshot]?
  private var gatheredDND = DNDSnapshot(isOn: false, leftMs: 0)

  init(socket: String, loop: EventLoop, logger: Logger, ring: EventRing = EventRing()) {
    self.logger = logger
    self.ring = ring
    var handle: ((DaemonClient.Event) -> Void)?
    daemon = DaemonClient(
      socket: socket, loop: loop, limit: WebFeed.requestLimit,
      log: { line in logger.log(line.level, line.text) },
      onEvent: { event in handle?(event) })
    handle = { [unowned self] event in received(event) }
  }

  /// Connects to badged (now, and again whenever it goes away) and watches every channel.
  func start() throws(SystemError) {
    daemon.watch([])
    try daemon.start()
  }

  func stop() {
    daemon.stop()
  }

  private func received(_ event: DaemonClient.Event) {
    switch event {
    case .connected:
      gathering = []
      gatheredDND = state.dnd
    case .disconnected:
      gathering = nil
      guard online else { return }
      // The next connection asks for the changes after the last one taken (`WATCH since=`).
      daemon.resume(after: state.seq)
      online = false
      let since = Int64(Environment.wallClockMicroseconds / 1000)
      ring.appendEvent(
        channel: nil, bytes: ServerSentEvent.event(ServerSentEvent.Name.offline, data: WebJSON.offline(since: since)))
      news()
    case .received(let delivery):
      received(delivery)
    }
  }

  private func received(_ delivery: DaemonClient.Session.Delivery) {
    switch delivery {
    case .channel(let snapshot), .event(let snapshot):
      if gathering != nil {
        gathering?.append(snapshot)
      } else {
        state.feed(.event(snapshot), into: &ring)
        news()
      }
    case .dnd(let dnd):
      if gathering != nil {
        gatheredDND = dnd
      } else {
        state.feed(.dnd(dnd, pushed: true), into: &ring)
        news()
      }
    case .gap:
      // The session asked for a new snapshot; it replaces the state when it is whole.
      gathering = []
      gatheredDND = state.dnd
    case .watching(let outcome):
      let channels = gathering ?? []
      gathering = nil
      if case .replayed = outcome {
        // The changes missed while away, in seq order: each becomes the change event it was.
        if gatheredDND != state.dnd { state.feed(.dnd(gatheredDND, pushed: true), into: &ring) }
        for snapshot in channels { state.feed(.event(snapshot), into: &ring) }
      } else {
        state.reset(dnd: gatheredDND, channels: channels, ring: &ring)
      }
      online = true
      news()
    case .watchRefused(let code, let message):
      logger.error("badged refused to send the counts: \(code) \(message)")
    case .reply, .forward, .unreadableForward, .cleared, .reloaded:
      break
    }
  }
}
