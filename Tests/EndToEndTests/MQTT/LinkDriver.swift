import BadgeMesh
import BadgeMosquitto
import BadgeSystem
import Foundation

/// MQTT sessions of badged-mqtt's link (`MosquittoSession`) on an event loop of the test's,
/// against a real broker: the loop runs until what the test waits for has happened.
final class LinkDriver {
  let loop: EventLoop
  let broker: Broker
  /// Every session's events, as words the tests compare: `desktop connected`, `desktop
  /// failed: …`, `laptop message badged/ana/x: payload`.
  private(set) var events: [String] = []
  /// The messages each session received.
  private(set) var messages: [String: [IncomingMessage]] = [:]
  private var sessions: [MosquittoSession] = []

  init(broker: Broker) throws {
    self.broker = broker
    loop = try EventLoop()
  }

  /// Options as badged-mqtt makes them for `user`, with what the test changes.
  func options(_ user: String, change: (inout MosquittoOptions) -> Void = { _ in }) -> MosquittoOptions {
    var options = MosquittoOptions(
      clientID: "link-test-\(user)-\(UUID().uuidString.prefix(6))", host: "localhost", port: broker.port,
      keepaliveSeconds: 30, tls: .init(caFile: broker.caFile, certFile: nil, keyFile: nil), username: user,
      password: Broker.passwords[user],
      will: MeshMessage(topic: "badged/ana/host/\(user)/status", payload: Array("offline".utf8), retain: true),
      sessionExpirySeconds: 600, maximumPacketSize: UInt32(MeshLimits.maxPacketBytes))
    change(&options)
    return options
  }

  /// A session named `name` (in `events`), not yet connecting.
  func session(_ name: String, _ options: MosquittoOptions) throws -> MosquittoSession {
    let session = try MosquittoSession(loop: loop, options: options)
    session.onEvent = { [unowned self] event in
      switch event {
      case .connected(let present): events.append("\(name) connected\(present ? " (session present)" : "")")
      case .failed(let failure): events.append("\(name) failed: \(failure)")
      case .lost(let failure): events.append("\(name) lost: \(failure)")
      case .message(let message):
        messages[name, default: []].append(message)
        events.append("\(name) message \(message.topic): \(String(decoding: message.payload, as: UTF8.self))")
      }
    }
    sessions.append(session)
    return session
  }

  /// Connects and waits for the outcome; the event.
  func connect(_ session: MosquittoSession, timeout: Double = 10) -> String? {
    let before = events.count
    session.connect()
    guard run(timeout: timeout, until: { self.events.count > before }) else { return nil }
    return events[before]
  }

  /// Runs the loop until `until` holds or `timeout` seconds pass; whether it held.
  @discardableResult
  func run(timeout: Double = 10, until: () -> Bool) -> Bool {
    let deadline = Environment.monotonicMicroseconds + UInt64(timeout * 1_000_000)
    while !until() {
      let now = Environment.monotonicMicroseconds
      guard now < deadline, (try? loop.runOnce(timeout: min(deadline - now, 50_000))) != nil else { return until() }
    }
    return true
  }

  /// Publishes `marker` from `session` on a topic `subscriber` listens to and waits until it
  /// comes back within `timeout` seconds: everything the broker queued for `subscriber` before
  /// it has arrived.
  func sync(_ session: MosquittoSession, through subscriber: String, topic: String, timeout: Double = 10) -> Bool {
    let marker = "sync-\(UUID().uuidString.prefix(8))"
    session.publish(MeshMessage(topic: topic, payload: Array(marker.utf8), retain: false))
    return run(timeout: timeout) { self.events.contains { $0.hasPrefix("\(subscriber) message \(topic): \(marker)") } }
  }
}
