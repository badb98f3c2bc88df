import Foundation
import TestSupport
import Testing

/// Junk on the socket: every line gets its one error, nothing changes, the connection stays
/// usable, and a well-behaved client beside it is served with exact counts.
@Suite struct JunkInputTests {
  /// Sends `junk` then `PING` on one connection while another client counts; returns the
  /// junk's replies (without the final `OK pong`).
  static func flood(_ daemon: DaemonProcess, _ junk: [UInt8]) throws -> [String] {
    let neighbour = try daemon.client()
    #expect(try neighbour.request("INCR good")[0].hasPrefix("STATE good count=1 "))
    let abuser = try daemon.client()
    let sending = sendInBackground(junk + Array("\nPING\n".utf8), to: abuser.fd)
    // Served while the junk is read: each round trip goes through the same loop.
    for n in 2...5 { #expect(try neighbour.request("INCR good")[0].hasPrefix("STATE good count=\(n) ")) }
    let replies = try abuser.readLines(through: "OK pong", timeout: 60)
    sending.wait()
    #expect(try count("good", daemon) == 5)
    return Array(replies.dropLast())
  }

  @Test func aMegabyteOfRandomBytes() throws {
    let daemon = try DaemonProcess()
    var random = SplitMix(seed: 0xBAD6E)
    let junk = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &random) }
    let replies = try Self.flood(daemon, junk)
    #expect(replies.count == expectedReplyCount(junk + [0x0A]))
    #expect(replies.allSatisfy { $0.hasPrefix("ERR ") }, "\(replies.first { !$0.hasPrefix("ERR ") } ?? "")")
    #expect(
      replies.allSatisfy { line in line.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x7F } },
      "control bytes come back escaped")
    let listed = try daemon.client().request("LIST")
    #expect(
      listed.count == 2 && listed[0].hasPrefix("STATE good count=5 "), "nothing changed but the good channel: \(listed)"
    )
    try expectHealthy(daemon, peakMiB: 32, "1 MB of random bytes")
  }

  @Test func nulBytesInAndAcrossLines() throws {
    let daemon = try DaemonProcess()
    let lines = [UInt8](repeating: 0, count: 3) + [0x0A]
    let junk = [UInt8](repeating: 0, count: 1 << 20) + [0x0A] + Array([[UInt8]](repeating: lines, count: 1000).joined())
    let replies = try Self.flood(daemon, junk)
    #expect(replies.count == 1001)
    #expect(replies.first?.hasPrefix("ERR line-too-long ") == true)
    #expect(
      replies.dropFirst().allSatisfy { $0.hasPrefix(#"ERR unknown-command Unknown command '\x00\x00\x00'"#) },
      "\(replies[1])")
    try expectHealthy(daemon, peakMiB: 32, "NUL bytes")
  }

  @Test func invalidUTF8Lines() throws {
    let daemon = try DaemonProcess()
    let line: [UInt8] = Array("INCR ".utf8) + [0xFF, 0xFE, 0xC3, 0x28, 0xED, 0xA0, 0x80] + [0x0A]
    let replies = try Self.flood(daemon, Array([[UInt8]](repeating: line, count: 10_000).joined()))
    #expect(replies.count == 10_000)
    #expect(replies.allSatisfy { $0.hasPrefix("ERR bad-utf8 ") })
    try expectHealthy(daemon, peakMiB: 32, "invalid UTF-8")
  }

  @Test func aMegabyteLineThenAValidRequest() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let junk = Array("INCR ".utf8) + [UInt8](repeating: 0x61, count: 1 << 20) + Array("\nINCR mail\n".utf8)
    let sending = sendInBackground(junk, to: client.fd)
    #expect(try client.readReply()[0].hasPrefix("ERR line-too-long "))
    #expect(try client.readReply()[0].hasPrefix("STATE mail count=1 "))
    sending.wait()
    #expect(try count("mail", daemon) == 1)
    try expectHealthy(daemon, peakMiB: 32, "a 1 MB line")
  }

  @Test func tenThousandPipelinedRequestsInOneWriteAreCountedExactly() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let sending = sendInBackground(Array(String(repeating: "INCR p\n", count: 10_000).utf8), to: client.fd)
    for n in 1...10_000 {
      let reply = try client.readReply()
      guard reply.count == 2, field(reply[0], "count") == String(n) else {
        Issue.record("reply \(n): \(reply)")
        break
      }
    }
    sending.wait()
    #expect(try count("p", daemon) == 10_000)
    try expectHealthy(daemon, peakMiB: 32, "10,000 pipelined requests")
  }

  @Test func clientsThatVanishMidLineLeaveExactlyTheirWholeLines() throws {
    let daemon = try DaemonProcess()
    for _ in 0..<100 {
      let client = try daemon.client()
      try client.send(String(repeating: "INCR v\n", count: 50) + "INCR v 1000")
      client.close()
    }
    // Each vanished client's whole lines are applied, its half line never is.
    #expect(try waitUntil(timeout: 20) { try count("v", daemon) == 5000 })
    #expect(try count("v", daemon) == 5000)
    try expectHealthy(daemon, peakMiB: 32, "clients vanishing mid-line")
  }
}
