import BadgeClient
import BadgeCore
import BadgeProtocol
import BadgeSystem
import Foundation
import Testing

/// BadgeClient's connection against the real badged on a temporary socket: requests and
/// replies in order, the watch stream, output that never blocks the loop, and reconnection
/// with one log line per change of the link's state.
@Suite struct DaemonClientTests {
  /// A client on a loop of the test's, and what it heard.
  final class Rig {
    let loop: EventLoop
    var client: DaemonClient!
    var channels: [ChannelSnapshot] = []
    var watchings = 0
    /// What each end of the stream's `WATCH` said it was.
    var outcomes: [WatchOutcome] = []
    var disconnections = 0
    var logLines: [String] = []

    init(socket: String, limit: Int = 64) throws {
      loop = try EventLoop()
      client = DaemonClient(
        socket: socket, loop: loop, limit: limit, log: { [unowned self] in logLines.append($0.text) },
        onEvent: { [unowned self] in heard($0) })
    }

    private func heard(_ event: DaemonClient.Event) {
      switch event {
      case .connected: break
      case .received(.channel(let snapshot)), .received(.event(let snapshot)): channels.append(snapshot)
      case .received(.watching(let outcome)):
        watchings += 1
        outcomes.append(outcome)
      case .received: break
      case .disconnected: disconnections += 1
      }
    }

    /// Runs the loop until `until` holds or 10 seconds pass; whether it held.
    @discardableResult
    func run(until: () -> Bool) -> Bool {
      let deadline = Environment.monotonicMicroseconds + 10_000_000
      while !until() {
        let now = Environment.monotonicMicroseconds
        guard now < deadline, (try? loop.runOnce(timeout: min(deadline - now, 50_000))) != nil else { return until() }
      }
      return true
    }

    /// Sends `request` and runs the loop until its reply ended; its lines.
    func reply(_ request: Request, id: String? = nil) -> [ReplyLine]? {
      var lines: [ReplyLine] = []
      var ended = false
      guard
        client.send(
          request, id: id,
          reply: { reply in
            switch reply {
            case .line(let line):
              lines.append(line)
              ended = line.isStatus
            case .connectionLost: ended = true
            }
          })
      else { return nil }
      return run { ended } ? lines : nil
    }
  }

  static func name(_ text: String) -> ChannelName { ChannelName(text)! }

  @Test func repliesComeInOrderAndTheWatchStreamFollows() throws {
    let daemon = try DaemonProcess()
    defer { daemon.stop() }
    let rig = try Rig(socket: daemon.socket)
    rig.client.watch([ChannelPattern("mail")!])
    try rig.client.start()
    #expect(rig.run { rig.watchings == 1 })
    #expect(rig.channels.map(\.count) == [0])
    // A write's reply is the channel's state, then its status; the same id again counts once.
    let first = rig.reply(.write(Self.name("mail"), .incr(3)), id: "k1")
    #expect(first?.count == 2 && first?.last == .ok(""))
    #expect(rig.reply(.write(Self.name("mail"), .incr(3)), id: "k1")?.last == .ok("repeated"))
    let got = rig.reply(.get(Self.name("mail")))
    #expect(got?.count == 2 && got?.last == .ok(""))
    #expect(rig.run { rig.channels.last?.count == 3 })
    #expect(rig.logLines == ["Connected to badged at \(daemon.socket)."])
  }

  /// 20,000 requests at once are far more than the socket takes: the client writes what it
  /// takes and the rest as the daemon reads, while the loop reads the replies.
  @Test func aLongRunOfRequestsNeverBlocksTheLoop() throws {
    let daemon = try DaemonProcess()
    defer { daemon.stop() }
    let rig = try Rig(socket: daemon.socket, limit: 20_000)
    try rig.client.start()
    #expect(rig.run { rig.client.isConnected })
    var answered = 0
    for _ in 0..<20_000 {
      let sent = rig.client.send(.write(Self.name("bulk"), .incr(1))) { reply in
        if case .line(.ok) = reply { answered += 1 }
      }
      #expect(sent)
    }
    #expect(!rig.client.hasRoom(for: 1))
    #expect(rig.run { answered == 20_000 })
    let got = rig.reply(.get(Self.name("bulk")))
    guard case .state(let snapshot)? = got?.first else {
      Issue.record("no state line: \(String(describing: got))")
      return
    }
    #expect(snapshot.count == 20_000)
  }

  /// The daemon stops and comes back on the same state: the client says it once each way (not
  /// once per attempt), asks for the snapshot again, and shows what the daemon kept.
  @Test func itReconnectsAfterTheDaemonRestartsAndSaysSoOnce() throws {
    let daemon = try DaemonProcess()
    let rig = try Rig(socket: daemon.socket)
    rig.client.watch([])
    try rig.client.start()
    #expect(rig.run { rig.watchings == 1 })
    #expect(rig.reply(.write(Self.name("kept"), .incr(2)))?.last == .ok(""))
    daemon.stop()
    // The connection ends, then attempts fail until the daemon is back.
    #expect(rig.run { rig.disconnections >= 3 })
    #expect(rig.reply(.ping) == nil, "nothing is sent while the daemon is away")
    let again = try DaemonProcess(folder: daemon.folder)
    defer { again.stop() }
    #expect(rig.run { rig.watchings == 2 })
    #expect(rig.channels.last?.channel == "kept" && rig.channels.last?.count == 2)
    let peer = "badged at \(daemon.socket)"
    #expect(rig.logLines.count == 4, "\(rig.logLines)")
    #expect(rig.logLines.first == "Connected to \(peer).")
    #expect(
      rig.logLines.dropFirst().first == "Lost the connection to \(peer): badged closed the connection; reconnecting.")
    #expect(rig.logLines.dropFirst(2).first?.hasPrefix("Failed to connect to \(peer): ") == true)
    #expect(rig.logLines.last?.hasPrefix("Connected to \(peer) after ") == true)
    #expect(rig.logLines.last?.hasSuffix(" failed attempts.") == true)
  }

  /// `watch(_:since:)` replays the changes after a number; `resume(after:)` is what the next
  /// connection asks, replayed when the daemon has it (its number after a restart) and reset
  /// otherwise.
  @Test func aWatchSinceReplaysAndAReconnectResumesOrResets() throws {
    let daemon = try DaemonProcess()
    let writer = try daemon.client()
    for _ in 0..<3 { _ = try writer.request("INCR mail") }
    let rig = try Rig(socket: daemon.socket)
    rig.client.watch([ChannelPattern("mail")!], since: 1)
    try rig.client.start()
    #expect(rig.run { rig.watchings == 1 })
    #expect(rig.outcomes == [.replayed(since: 1)])
    #expect(rig.channels.map { "\($0.count)@\($0.seq)" } == ["2@2", "3@3"])
    rig.client.resume(after: 3)
    daemon.stop()
    let again = try DaemonProcess(folder: daemon.folder)
    #expect(rig.run { rig.watchings == 2 })
    #expect(rig.outcomes.last == .replayed(since: 3), "nothing after 3, which the restart kept")
    #expect(rig.channels.count == 2)
    #expect(rig.reply(.write(Self.name("mail"), .incr(1)))?.last == .ok(""))
    #expect(rig.run { rig.channels.count == 3 })
    #expect(rig.channels.last.map { "\($0.count)@\($0.seq)" } == "4@4")
    rig.client.resume(after: 2)
    again.stop()
    let third = try DaemonProcess(folder: daemon.folder)
    defer { third.stop() }
    #expect(rig.run { rig.watchings == 3 })
    #expect(rig.outcomes.last == .reset, "change 3 is not kept across a restart")
    #expect(rig.channels.last.map { "\($0.count)@\($0.seq)" } == "4@4")
  }

  /// A connection that wanted one replay stops watching once it came.
  @Test func unwatchAfterAReplayStopsTheEvents() throws {
    let daemon = try DaemonProcess()
    defer { daemon.stop() }
    let writer = try daemon.client()
    for _ in 0..<2 { _ = try writer.request("INCR mail") }
    let rig = try Rig(socket: daemon.socket)
    rig.client.watch([], since: 0)
    try rig.client.start()
    #expect(rig.run { rig.watchings == 1 })
    #expect(rig.channels.map { "\($0.count)@\($0.seq)" } == ["1@1", "2@2"])
    rig.client.unwatch()
    #expect(rig.reply(.ping)?.last == .ok("pong"))
    _ = try writer.request("INCR mail")
    // A round trip: an event of that change would have come before the pong.
    #expect(rig.reply(.ping)?.last == .ok("pong"))
    #expect(rig.channels.count == 2)
  }

  /// A request in flight when the connection ends is told so.
  @Test func aRequestInFlightWhenTheClientStopsIsToldTheConnectionWasLost() throws {
    let daemon = try DaemonProcess()
    defer { daemon.stop() }
    let rig = try Rig(socket: daemon.socket)
    try rig.client.start()
    var outcome: [String] = []
    #expect(
      rig.client.send(.ping) { reply in
        if case .connectionLost = reply { outcome.append("lost") } else { outcome.append("line") }
      })
    rig.client.stop()
    #expect(outcome == ["lost"])
    #expect(!rig.client.isConnected && !rig.client.send(.ping) { _ in })
  }
}
