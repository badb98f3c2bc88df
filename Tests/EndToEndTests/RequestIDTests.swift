import Foundation
import TestSupport
import Testing

/// Request ids against the real daemon: a retry counts once, after a kill -9 and a restart too,
/// in any order and however pipelined; the table forgets only its oldest ids; every bad id or
/// `upto` is refused and changes nothing.
@Suite struct RequestIDTests {
  @Test func aRetryCountsOnceAlsoAfterAKillAndARestart() throws {
    let folder = try TemporaryFolder()
    var daemon: DaemonProcess? = try DaemonProcess(folder: folder)
    let client = try daemon!.client()
    let first = try client.request("INCR c 1 id=a")
    #expect(first.last == "OK" && field(first[0], "count") == "1")
    let retry = try client.request("INCR c 1 id=a")
    #expect(retry.last == "OK repeated" && withoutPulse(retry[0]) == withoutPulse(first[0]), "the state as it is")
    daemon!.crash()  // kill -9 after the reply: the id is in the journal with its change
    daemon = nil
    let again = try DaemonProcess(folder: folder)
    let reply = try again.client().request("INCR c 1 id=a")
    #expect(reply.last == "OK repeated")
    #expect(field(reply[0], "count") == "1" && field(reply[0], "total") == "1")
    #expect(try currentCount("c", socket: again.socket) == 1)
  }

  /// A request that changed nothing saved its id too: its retry, after a kill -9 and items
  /// that arrived since, clears nothing.
  @Test func aClearAtZeroKeepsItsIdAcrossAKill() throws {
    let folder = try TemporaryFolder()
    var daemon: DaemonProcess? = try DaemonProcess(folder: folder)
    #expect(try daemon!.client().request("CLEAR c id=z").last == "OK")
    daemon!.crash()
    daemon = nil
    let again = try DaemonProcess(folder: folder)
    let client = try again.client()
    _ = try client.request("INCR c 2")
    #expect(try client.request("CLEAR c id=z").last == "OK repeated")
    #expect(try currentCount("c", socket: again.socket) == 2)
  }

  /// 100,000 INCRs, pipelined in windows of 2,000 lines: 50,000 ids, each sent twice, in a
  /// shuffled order (so a retry may come in the same loop turn as its first try, or many
  /// turns later).
  @Test func fiftyThousandIdsSentTwiceInShuffledOrderCountFiftyThousand() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    var random = SplitMix(seed: 18)
    var order = Array(0..<50_000) + Array(0..<50_000)
    order.shuffle(using: &random)
    var statuses: [String: Int] = [:]
    for start in stride(from: 0, to: order.count, by: 2000) {
      let window = order[start..<min(start + 2000, order.count)]
      try client.send(window.map { "INCR n id=laptop:\($0)\n" }.joined())
      for _ in window { statuses[try client.readReply().last!, default: 0] += 1 }
    }
    #expect(statuses == ["OK": 50_000, "OK repeated": 50_000])
    #expect(try currentCount("n", socket: daemon.socket) == 50_000)
  }

  /// The table keeps the last 65,536 ids, across a restart (the snapshot holds them): the
  /// oldest one is forgotten, and its retry carried out again; the next oldest is still known.
  @Test func pastTheBoundTheOldestIdIsForgotten() throws {
    let folder = try TemporaryFolder()
    var daemon: DaemonProcess? = try DaemonProcess(folder: folder)
    let client = try daemon!.client()
    let ids = 65_537
    for start in stride(from: 0, to: ids, by: 2000) {
      let window = start..<min(start + 2000, ids)
      try client.send(window.map { "INCR n id=t\($0)\n" }.joined())
      for _ in window { _ = try client.readReply() }
    }
    #expect(daemon!.stop() == 0)
    daemon = nil
    let again = try DaemonProcess(folder: folder)
    let reader = try again.client()
    #expect(try reader.request("INCR n id=t1").last == "OK repeated")
    #expect(try reader.request("INCR n id=t65536").last == "OK repeated")
    #expect(try reader.request("INCR n id=t0").last == "OK", "the oldest was forgotten: carried out again")
    #expect(try currentCount("n", socket: again.socket) == 65_538)
  }

  @Test func theIdWithAnotherRequestIsRefused() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    _ = try client.request("INCR c 2 id=a")
    let before = try client.request("GET c")
    for line in ["INCR c 3 id=a", "DECR c 2 id=a", "CLEAR c id=a", "SET c 2 id=a", "INCR d 2 id=a"] {
      #expect(
        try client.request(line) == [
          "ERR id-reused The id was given to another request before; nothing changed (a new request needs a new id)"
        ], "\(line)")
    }
    #expect(try client.request("GET c").map(withoutPulse) == before.map(withoutPulse))
    #expect(try client.request("incr  c 2 id=a").last == "OK repeated", "the same request, spelled otherwise")
  }

  /// Every bad id and `upto`: its error, and nothing changed (the channel's line, `seq`
  /// included, is as before, and the next change takes the next number).
  @Test func badIdsAndUptosAreRefusedAndChangeNothing() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    _ = try client.request("INCR c 4")
    let before = try client.request("GET c")
    let tokenRule = "ids are 1-64 characters from A-Z a-z 0-9 . _ : -"
    let refusals: [(String, String)] = [
      ("INCR c id=", "ERR bad-arguments Invalid id ''; \(tokenRule)"),
      (
        "INCR c id=" + String(repeating: "x", count: 65),
        "ERR bad-arguments Invalid id '\(String(repeating: "x", count: 64))…'; \(tokenRule)"
      ),
      ("INCR c id=a/b", "ERR bad-arguments Invalid id 'a/b'; \(tokenRule)"),
      ("INCR c id=a id=b", "ERR bad-arguments 'id=' is given twice; usage: INCR <channel> [n]"),
      ("GET c id=a", "ERR bad-arguments GET takes no id=: ids are for requests that change something"),
      ("CLEAR c upto=-1", "ERR bad-number Invalid upto '-1'; expected a running total, a whole number from 0"),
      ("CLEAR c upto=x", "ERR bad-number Invalid upto 'x'; expected a running total, a whole number from 0"),
      (
        "CLEAR c upto=1 upto=2",
        "ERR bad-arguments 'upto=' is given twice; usage: CLEAR <channel> [upto=<total>] | CLEAR *"
      ),
      (
        "CLEAR * upto=1",
        "ERR bad-arguments upto= takes one channel, not *: each channel has its own total; usage: CLEAR "
          + "<channel> [upto=<total>] | CLEAR *"
      ),
      ("INCR c upto=1", "ERR bad-arguments INCR takes no upto=; usage: INCR <channel> [n]"),
    ]
    for (line, error) in refusals {
      #expect(try client.request(line) == [error], "\(line)")
    }
    #expect(try client.request("GET c").map(withoutPulse) == before.map(withoutPulse))
    #expect(try field(client.request("INCR c")[0], "seq") == "2", "no id was saved: seq moved by the change alone")
  }

  /// badgectl's `--id` and `--upto`: a retried command prints the state and counts once, the
  /// id with another command exits 1, a clear up to a total leaves what came after it.
  @Test func badgectlSendsIdsAndClearsUpToATotal() throws {
    let daemon = try DaemonProcess()
    let socket = daemon.socket
    #expect(try badgectl(["incr", "ci", "3", "--id", "build:812"], socket: socket).stdout == "ci 3 pulsing\n")
    #expect(try badgectl(["incr", "ci", "3", "--id", "build:812"], socket: socket).stdout == "ci 3 pulsing\n")
    let reused = try badgectl(["decr", "ci", "--id", "build:812"], socket: socket)
    #expect(reused.status == 1)
    #expect(
      reused.stderr
        == "Error: The id was given to another request before; nothing changed (a new request needs a new id) "
        + "(id-reused)\n"
    )
    try badgectl(["incr", "ci"], socket: socket)
    let cleared = try badgectl(["clear", "ci", "--upto", "3", "--format", "json"], socket: socket)
    #expect(cleared.stdout.contains(#""count":1,"#) && cleared.stdout.contains(#""total":4,"#))
    #expect(try currentCount("ci", socket: socket) == 1)
    #expect(try badgectl(["clear", "ci"], socket: socket).stdout == "ci 0\n", "a plain clear is whole")
  }
}
