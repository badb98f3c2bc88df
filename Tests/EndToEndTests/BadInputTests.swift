import Foundation
import Testing

/// Every kind of bad input gets its ERR, nothing changes, and the connection stays usable.
@Suite struct BadInputTests {
  static let cases: [(request: String, code: String)] = [
    ("FROB mail", "unknown-command"),
    ("INCR", "bad-arguments"),
    ("INCR mail 1 2", "bad-arguments"),
    ("SET mail", "bad-arguments"),
    ("GET", "bad-arguments"),
    ("GET mail extra", "bad-arguments"),
    ("LIST all", "bad-arguments"),
    ("CLEAR", "bad-arguments"),
    ("CONFIGURE mail", "bad-arguments"),
    ("INCR bad/name", "bad-name"),
    ("INCR -mail", "bad-name"),
    ("INCR \(String(repeating: "x", count: 65))", "bad-name"),
    ("WATCH a/b", "bad-name"),
    ("INCR mail x", "bad-number"),
    ("INCR mail 0", "bad-number"),
    ("INCR mail -1", "bad-number"),
    ("SET mail 1.5", "bad-number"),
    ("SET mail 2147483648", "out-of-range"),
    ("INCR mail 99999999999999999999999", "out-of-range"),
    ("CONFIGURE mail colour=red", "bad-setting"),
    ("CONFIGURE mail style=square", "bad-setting"),
    ("CONFIGURE mail max_label=0", "bad-setting"),
  ]

  @Test(arguments: cases)
  func badRequestGetsItsErrorAndChangesNothing(request: String, code: String) throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let before = try client.request("SET mail 7")[0]
    let reply = try client.request(request)
    #expect(reply.count == 1)
    #expect(reply[0].hasPrefix("ERR \(code) "), "\(request) -> \(reply)")
    #expect(reply[0].count > "ERR \(code) ".count + 5, "a readable message")
    #expect(try withoutPulse(client.request("GET mail")[0]) == withoutPulse(before))
    #expect(try client.request("LIST").count == 2)
  }

  @Test func incrPastTheMaximumIsRefused() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let max = try client.request("SET mail 2147483647")[0]
    let reply = try client.request("INCR mail")
    #expect(reply[0].hasPrefix("ERR out-of-range "))
    #expect(try withoutPulse(client.request("GET mail")[0]) == withoutPulse(max))
  }

  @Test func anOverlongLineIsRefusedAndTheRestOfItDiscarded() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    try client.send("INCR " + String(repeating: "a", count: 10_000) + " trailing words\nINCR mail\n")
    #expect(try client.readReply()[0].hasPrefix("ERR line-too-long "))
    #expect(try client.readReply()[0].hasPrefix("STATE mail count=1 "))
  }

  @Test func aLineOfExactlyTheLimitIsRead() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let line = "GET mail" + String(repeating: " ", count: 4096 - 8)
    #expect(line.utf8.count == 4096)
    try client.send(line + "\r\n")
    #expect(try client.readReply()[0].hasPrefix("STATE mail "))
  }

  @Test func invalidUTF8IsRefused() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    try client.send(Array("INCR ma".utf8) + [0xC3, 0x28] + Array("il\n".utf8))
    #expect(try client.readReply()[0].hasPrefix("ERR bad-utf8 "))
    try client.send("INCR mäil\n")  // valid UTF-8, but not a name
    #expect(try client.readReply()[0].hasPrefix("ERR bad-name "))
    #expect(try client.request("LIST") == ["OK"])
  }

  @Test func aPeerThatHangsUpMidRequestDoesNotHurtTheDaemon() throws {
    let daemon = try DaemonProcess()
    for _ in 0..<20 {
      let client = try daemon.client()
      try client.send(String(repeating: "INCR mail\n", count: 500) + "INCR ma")
      client.close()
    }
    // Every complete line sent before the hang-up is carried out (each client's 500 lines
    // arrive in one write, and are carried out before any reply is sent); the cut one is not.
    // The hung-up clients cannot be asked, so the count itself is the barrier: it reaches
    // exactly 10,000, and nothing made "ma".
    let client = try daemon.client()
    var count = -1
    #expect(
      try waitUntil {
        count = Int(try field(client.request("GET mail")[0], "count") ?? "") ?? -1
        return count >= 10_000
      })
    #expect(count == 10_000)
    #expect(try field(client.request("GET ma")[0], "seq") == "0")
    #expect(try client.request("PING") == ["OK pong"])
  }
}
