import BadgeCore
import TestSupport
import Testing

@testable import BadgeMesh

/// Random runs of the bridge as a mirror against a model of its daemon's outbox and of an
/// owner that answers, misses or refuses for now what it is sent, with the broker and the
/// daemon going and coming (the greeting read a line at a time, answers coming in between).
/// After every step the forward queue's invariant holds (ForwardQueue's doc comment); at the
/// end, with both connections up and the owner answering, every write is delivered.
@Suite struct ForwardInvariantTests {
  static let channels = ["news", "disk", "irc"]
  static let owners = ["news": "nas", "disk": "nas", "irc": "laptop"]

  /// One run: the model and the bridge side by side.
  final class Run {
    let bridge = MeshHarness()
    var random: SplitMix
    /// The daemon's outbox: ids in order, with their channels.
    var outbox: [(id: String, channel: String)] = []
    var counter = 0
    /// What the owners were sent and have not answered or missed yet: ids.
    var onTheWire: [String] = []
    /// Each write's answer topic: its channel's owner's reply topic for this machine.
    var replyTopic: [String: String] = [:]
    /// The daemon's replies still owed, in order (answered once the greeting is over).
    var owed = 0
    /// The outbox lines still to list in this connection's `FORWARDS` reply, and whether the
    /// greeting (listing, then the watch's snapshot) is over.
    var listing: [(id: String, channel: String)] = []
    var greeting = false
    var daemonUp = false
    /// The ids handed to the bridge on this connection.
    var handed: Set<String> = []

    init(seed: UInt64) { random = SplitMix(seed: seed) }

    var synced: Bool { bridge.core.broker.isSynced }

    func line(_ entry: (id: String, channel: String)) -> String {
      "FORWARD \(entry.id) INCR \(entry.channel) id=\(entry.id)"
    }

    /// Takes what the core did: its commands on the wire, its requests owed a reply, the
    /// deliveries out of the daemon's outbox.
    func take(_ actions: [MeshAction]) throws {
      for message in actions.published where message.topic.hasSuffix("/cmd") {
        let id = String(decoding: message.correlation ?? [], as: UTF8.self)
        let channel = message.topic.split(separator: "/")[3]
        onTheWire.append(id)
        replyTopic[id] = "badged/ana/host/\(ForwardInvariantTests.owners[String(channel)]!)/reply/desktop"
      }
      for request in actions.requests where daemonUp {
        owed += 1
        guard request.hasPrefix("DELIVERED ") else { continue }
        let id = String(request.dropFirst("DELIVERED ".count))
        let index = try #require(outbox.firstIndex { $0.id == id }, "DELIVERED \(id), which is not waiting")
        outbox.remove(at: index)
      }
    }

    func daemon(_ line: String) throws { try take(bridge.daemon(line)) }

    /// The daemon's connection comes up: its greeting, the listing to come a line at a time.
    func connectDaemon() throws {
      try take(bridge.startDaemon())
      daemonUp = true
      greeting = true
      owed = 0
      handed = []
      try daemon("OK")
      listing = outbox
    }

    /// The next line of the greeting.
    func greet() throws {
      if let next = listing.first {
        listing.removeFirst()
        handed.insert(next.id)
        try daemon(line(next))
      } else {
        try daemon("OK")
        try daemon("STATE * dnd=0 left=0")
        try daemon("OK watching")
        greeting = false
      }
    }

    func payOwed() throws {
      guard daemonUp && !greeting else { return }
      while owed > 0 {
        owed -= 1
        try daemon("OK")
      }
    }

    func connectBroker() throws {
      var retained: [(String, String)] = []
      for channel in ForwardInvariantTests.channels {
        retained.append(
          (
            "badged/ana/host/\(ForwardInvariantTests.owners[channel]!)/ch/\(channel)/state",
            statePayload(ForwardInvariantTests.owners[channel]!, count: 1)
          ))
      }
      if random.next() % 2 == 0 { retained.append(("badged/ana/host/nas/status", "online")) }
      try take(bridge.connectBroker(retained: retained))
    }

    /// The owner's answer to a write on the wire: applied, refused for now, or missed.
    func answer() throws {
      guard !onTheWire.isEmpty else { return }
      let id = onTheWire.remove(at: Int(random.next() % UInt64(onTheWire.count)))
      switch random.next() % 6 {
      case 0: return  // missed
      case 1:
        try take(
          bridge.message(
            replyTopic[id]!, #"{"id":"\#(id)","ok":false,"error":"failed disk full"}"#,
            correlation: id))
      default:
        try take(bridge.message(replyTopic[id]!, #"{"id":"\#(id)","ok":true}"#, correlation: id))
      }
    }

    func step() throws {
      switch random.next() % 12 {
      case 0, 1, 2, 3: try answer()
      case 4:
        guard daemonUp && !greeting else { return }
        counter += 1
        let entry = (
          id: "desktop:ab:\(counter)", channel: ForwardInvariantTests.channels.randomElement(using: &random)!
        )
        outbox.append(entry)
        handed.insert(entry.id)
        try daemon(line(entry))
      case 5, 6: if daemonUp && greeting { try greet() }
      case 7:
        if synced {
          try take(bridge.brokerDown())
          onTheWire.removeAll()
        } else {
          try connectBroker()
        }
      case 8:
        if daemonUp {
          try take(bridge.daemonClosed())
          daemonUp = false
        } else {
          try connectDaemon()
        }
      case 9: if synced { try take(bridge.message("badged/ana/host/nas/status", "online")) }
      case 10: try take(bridge.advance(ms: random.next() % 40_000))
      default: try payOwed()
      }
    }

    /// ForwardQueue's invariant.
    func check() {
      guard daemonUp else {
        #expect(bridge.core.pendingWrites == 0)
        return
      }
      let queue = bridge.core.mirror.forwards
      let waiting = Set(outbox.map(\.id)).intersection(handed)
      #expect(Set(queue.writes.map(\.id)) == waiting, "the queue holds exactly what was handed and not answered")
      guard synced else { return }
      for write in queue.window { #expect(write.sentAt != nil, "\(write.id) is not on its way") }
      if queue.count > 0 { #expect(queue.nextRetry != nil) }
    }

    /// Both connections up, the owner answering everything: the outbox empties.
    func settle() throws {
      if !daemonUp { try connectDaemon() }
      while greeting { try greet() }
      if !synced { try connectBroker() }
      for _ in 0..<100 where !outbox.isEmpty {
        try payOwed()
        while !onTheWire.isEmpty {
          let id = onTheWire.removeFirst()
          try take(bridge.message(replyTopic[id]!, #"{"id":"\#(id)","ok":true}"#, correlation: id))
          check()
        }
        try take(bridge.advance(ms: 900_000))
        check()
      }
      #expect(outbox.isEmpty, "still waiting: \(outbox.map(\.id))")
      #expect(bridge.core.pendingWrites == 0)
    }
  }

  @Test(arguments: 0..<40) func everyWriteIsAnsweredOrOnItsWayAndAllEnd(seed: UInt64) throws {
    let run = Run(seed: seed)
    try run.connectBroker()
    try run.connectDaemon()
    for _ in 0..<400 {
      try run.step()
      run.check()
    }
    try run.settle()
  }
}
