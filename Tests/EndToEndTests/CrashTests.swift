import Foundation
import TestSupport
import Testing

/// The durability promise under SIGKILL: for every channel,
/// acknowledged ≤ recovered count ≤ sent.
@Suite struct CrashTests {
  /// Counts of one run, shared by the client threads.
  final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var sent: [String: Int] = [:]
    private(set) var acknowledged: [String: Int] = [:]

    func send(_ channel: String) { lock.withLock { sent[channel, default: 0] += 1 } }
    func acknowledge(_ channel: String) { lock.withLock { acknowledged[channel, default: 0] += 1 } }
  }

  static let channels = ["mail", "ci", "chat", "app:a", "app:b"]

  /// One client: keeps up to `window` INCRs in flight, counting each as sent before it is
  /// written and as acknowledged when its `OK` arrives, until the connection breaks.
  static func client(socket: String, seed: Int, tally: Tally) {
    guard let connection = try? RawClient(path: socket) else { return }
    var inFlight: [String] = []
    var next = seed
    let window = 1 + seed % 16
    while true {
      var batch = ""
      while inFlight.count < window {
        let channel = channels[next % channels.count]
        next += seed % 3 + 1
        tally.send(channel)
        inFlight.append(channel)
        batch += "INCR \(channel)\n"
      }
      guard (try? connection.send(batch)) != nil else { return }
      guard let reply = try? connection.readReply(timeout: 5), reply.last == "OK" else { return }
      tally.acknowledge(inFlight.removeFirst())
    }
  }

  static func crashRun(sync: String, killAfter: Double) throws {
    let folder = try TemporaryFolder()
    let config = "[daemon]\nsync = \(sync)\n"
    var daemon: DaemonProcess? = try DaemonProcess(folder: folder, config: config)
    let socket = daemon!.socket
    let tally = Tally()
    let clients = (0..<6).map { i in
      let thread = Thread { client(socket: socket, seed: i * 7 + 1, tally: tally) }
      thread.start()
      return thread
    }
    Thread.sleep(forTimeInterval: killAfter)
    daemon!.crash()
    daemon = nil
    while clients.contains(where: { $0.isExecuting }) { Thread.sleep(forTimeInterval: 0.01) }

    let restarted = try DaemonProcess(folder: folder, config: config)
    let reader = try restarted.client()
    var totalAcknowledged = 0
    for channel in channels {
      let recovered = Int(try field(reader.request("GET \(channel)")[0], "count") ?? "") ?? -1
      let acknowledged = tally.acknowledged[channel] ?? 0
      let sent = tally.sent[channel] ?? 0
      totalAcknowledged += acknowledged
      #expect(acknowledged <= recovered, "\(sync) after \(killAfter)s: \(channel) lost acknowledged changes")
      #expect(recovered <= sent, "\(sync) after \(killAfter)s: \(channel) has changes never sent")
    }
    #expect(totalAcknowledged > 0, "the run must have made changes before the kill")
    #expect(!restarted.log.contains("damaged"), "a crash is not damage: \(restarted.log)")
  }

  /// Kill points spread over a run; fixed so a failure can be replayed, varied per mode.
  @Test(arguments: ["always", "everysec", "never"])
  func acknowledgedChangesSurviveSIGKILL(sync: String) throws {
    var generator = SplitMix(seed: UInt64(sync.utf8.count))
    for _ in 0..<4 {
      try Self.crashRun(sync: sync, killAfter: Double.random(in: 0.05...0.6, using: &generator))
    }
  }
}
