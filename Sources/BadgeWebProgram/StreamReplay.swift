import BadgeClient
import BadgeCore
import BadgeLog
import BadgeProtocol
import BadgeSystem

/// The replay connection of one resuming stream whose changes the ring no longer holds (a
/// browser back after badged-web restarted, or after the ring started a new epoch): a
/// connection of its own to badged that asks `WATCH since=<id>` with the stream's patterns,
/// gathers the changes badged replays, and closes. badged keeps its last 1024 changes: older
/// ones are not replayed, and the answer is a reset.
final class StreamReplay {
  /// What badged answered: the changes after the id, in seq order; `nil` when it could not
  /// replay them (`OK watching reset`), refused, or could not be reached.
  typealias Done = ([ChannelSnapshot]?) -> Void

  private var client: DaemonClient?
  private var changes: [ChannelSnapshot] = []
  private var done: Done?

  /// Whether `done` was called (the runtime then lets go of the replay).
  var isFinished: Bool { done == nil }

  init(socket: String, loop: EventLoop, logger: Logger, since: UInt64, patterns: [ChannelPattern], done: @escaping Done)
  {
    self.done = done
    var handle: ((DaemonClient.Event) -> Void)?
    let client = DaemonClient(
      socket: socket, loop: loop, limit: 1, log: { line in logger.log(.debug, "Replay: \(line.text)") },
      onEvent: { event in handle?(event) })
    self.client = client
    handle = { [unowned self] event in received(event) }
    client.watch(patterns, since: since)
  }

  /// Connects; `done` is called once, from the loop.
  func start() {
    do throws(SystemError) {
      try client?.start()
    } catch {
      finish(nil)
    }
  }

  private func received(_ event: DaemonClient.Event) {
    switch event {
    case .connected: break
    case .disconnected: finish(nil)
    case .received(.channel(let snapshot)), .received(.event(let snapshot)): changes.append(snapshot)
    case .received(.watching(.replayed)): finish(changes)
    case .received(.watching), .received(.watchRefused), .received(.gap): finish(nil)
    case .received: break
    }
  }

  private func finish(_ result: [ChannelSnapshot]?) {
    guard let done else { return }
    self.done = nil
    // The connection ends here; the client object lives until its own handler has returned.
    client?.stop()
    done(result)
  }
}
