import BadgeCore
import BadgeProtocol
import Testing

@testable import BadgeServer

/// Requests with ids in the server's core: carried out once, saved in the record of their
/// change (or one of their own), answered `OK repeated` when retried, taken back with a turn
/// that could not be saved.
@Suite struct RequestIDTurnTests {
  let turns = Turns()

  @Test func aRetryIsAnsweredWithTheStateAsItIsAndCountsOnce() {
    let client = turns.peer()
    turns.send(client, "INCR mail 1 id=a", "INCR mail 1 id=a")
    turns.endTurn()
    #expect(
      turns.take(client) == [
        "STATE mail count=1 label=1 dot=0 pulse=3000 muted=0 seq=1 badge=count dnd=off unseen=1 total=1", "OK",
        "STATE mail count=1 label=1 dot=0 pulse=3000 muted=0 seq=1 badge=count dnd=off unseen=1 total=1", "OK repeated",
      ])
    #expect(turns.log.saved.map(\.count) == [1])
    #expect(turns.log.savedIDs.map(\.in) == ["mail"], "the id rides in its change's record")
    // A later turn, after more arrived: the retry still changes nothing and shows what is now.
    turns.send(client, "INCR mail 2", "INCR mail id=a")
    turns.endTurn()
    #expect(turns.take(client).map { field($0, "count") ?? $0 } == ["3", "OK", "3", "OK repeated"])
    #expect(turns.store.channel(named: name("mail")).count == 3)
  }

  @Test func theIdWithAnotherRequestIsRefusedAndChangesNothing() {
    let client = turns.peer()
    turns.send(client, "INCR mail id=a", "DECR mail id=a", "INCR mail 2 id=a", "GET mail")
    turns.endTurn()
    let lines = turns.take(client)
    #expect(
      lines[2]
        == "ERR id-reused The id was given to another request before; nothing changed (a new request needs a new id)")
    #expect(lines[3] == lines[2])
    #expect(field(lines[4], "count") == "1")
    #expect(turns.log.saved.count == 1)
  }

  /// A clear at 0 changes nothing, but its id is saved (on a number of its own), so a retry
  /// after items arrived does not clear them.
  @Test func aRequestThatChangesNothingStillSavesItsId() {
    let client = turns.peer()
    turns.send(client, "CLEAR mail id=c")
    turns.endTurn()
    #expect(field(turns.take(client)[0], "count") == "0")
    #expect(turns.log.saved.isEmpty)
    #expect(turns.log.savedIDs.map(\.in) == [nil])
    #expect(turns.store.seq == 1)
    turns.send(client, "INCR mail 2", "CLEAR mail id=c")
    turns.endTurn()
    #expect(turns.take(client).map { field($0, "count") ?? $0 } == ["2", "OK", "2", "OK repeated"])
    let clear = turns.store.channel(named: name("mail")).snapshot(at: 0).clearRequest
    #expect(clear.map { field(RequestEncoder.line($0), "upto") } == "2")
  }

  /// `CLEAR *` saves each channel's change, then its id in a record of its own; its retry
  /// shows no channel.
  @Test func clearAllSavesItsIdAfterItsChanges() {
    let client = turns.peer()
    turns.send(client, "INCR a", "INCR b", "CLEAR * id=all")
    turns.endTurn()
    #expect(turns.log.savedIDs.map(\.in) == [nil])
    #expect(turns.store.seq == 5, "two increases, two clears, the id")
    _ = turns.take(client)
    turns.send(client, "INCR a", "CLEAR * id=all")
    turns.endTurn()
    #expect(Array(turns.take(client).dropFirst(2)) == ["OK repeated"])
    #expect(turns.store.channel(named: name("a")).count == 1)
  }

  @Test func doNotDisturbSavesItsIdInItsRecord() {
    let client = turns.peer()
    turns.send(client, "DND toggle id=d", "DND toggle id=d")
    turns.endTurn()
    #expect(
      turns.take(client) == [
        "STATE * dnd=1 left=0 at=1764620000000", "OK", "STATE * dnd=1 left=0 at=1764620000000", "OK repeated",
      ])
    #expect(turns.log.savedDND == [DoNotDisturb(isOn: true, until: 0)])
    #expect(turns.log.savedIDs.map(\.in) == ["*"])
    turns.send(client, "DND on id=e")  // on already: the id on its own
    turns.endTurn()
    #expect(turns.log.savedIDs.map(\.in) == ["*", nil])
  }

  /// A turn that cannot be saved takes its ids back with its changes: the retry, once saving
  /// works again, is carried out, and counts once.
  @Test func aFailedTurnForgetsItsIds() {
    let client = turns.peer()
    turns.log.failCommits = true
    turns.send(client, "INCR mail id=a", "CLEAR never id=b")
    turns.endTurn()
    #expect(turns.closed.map(\.id) == [client.id])
    #expect(turns.store.lookup(RequestID(token: "a", fingerprint: 0)!) == .unknown)
    #expect(turns.store.requestIDs.count == 0 && turns.store.seq == 0)
    turns.log.failCommits = false
    turns.now += 1_000_000
    turns.core.tryRepair()
    turns.endTurn()
    let again = turns.peer()
    turns.send(again, "INCR mail id=a", "INCR mail id=a")
    turns.endTurn()
    #expect(turns.take(again).map { field($0, "count") ?? $0 } == ["1", "OK", "1", "OK repeated"])
  }

  /// A request refused with an error saves no id: its retry is carried out afresh.
  @Test func aRefusedRequestSavesNoId() {
    let client = turns.peer()
    turns.send(client, "SET mail 2147483647", "INCR mail id=a", "DECR mail id=a")
    turns.endTurn()
    let lines = turns.take(client)
    #expect(lines[2].hasPrefix("ERR out-of-range "))
    #expect(field(lines[3], "count") == "2147483646" && lines[4] == "OK", "the id was free for another request")
  }

  /// An id is checked before storage failures: a retry is answered even while changes are
  /// refused, since answering it changes nothing.
  @Test func aRetryIsAnsweredWhileChangesAreRefused() {
    let client = turns.peer()
    turns.send(client, "INCR mail id=a")
    turns.endTurn()
    _ = turns.take(client)
    turns.log.failCommits = true
    turns.send(client, "INCR other")
    turns.endTurn()
    let again = turns.peer()
    turns.send(again, "INCR mail id=a", "INCR mail id=b")
    let lines = turns.take(again)
    #expect(lines[1] == "OK repeated")
    #expect(lines[2].hasPrefix("ERR failed "))
  }
}
