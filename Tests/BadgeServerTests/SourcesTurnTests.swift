import BadgeConfig
import BadgeCore
import Testing

@testable import BadgeServer

/// The sources program's connection in the core, turn by turn: one at a time, claims and
/// reports, other connections' counting writes refused, a click marking seen and handed to a
/// `mark-read` source, statuses listed and making channels stale, and the connection's leaving.
@Suite struct SourcesTurnTests {
  let turns = Turns()

  /// The sources program, with `mail` claimed (`mark-read`) and reported at 4 items, its
  /// replies read.
  func sources(onClear: String = "mark-read") -> Peer {
    let sources = turns.peer()
    turns.send(sources, "SOURCES attach", "SOURCE inbox claim mail on_clear=\(onClear)", "SET mail 4 new=4 id=src-1:1")
    turns.endTurn()
    _ = turns.take(sources)
    return sources
  }

  @Test func aClaimAndAReportShowTheSourceOnTheStateLine() {
    let sources = turns.peer()
    turns.send(sources, "SOURCES attach", "SOURCE inbox claim mail on_clear=seen", "SET mail 5 new=1 unseen=1")
    turns.endTurn()
    #expect(
      turns.take(sources) == [
        "OK",
        "STATE mail count=0 label= dot=0 pulse=0 muted=0 seq=1 badge=unseen dnd=off unseen=0 total=0 source=inbox "
          + "stale=0",
        "OK",
        "STATE mail count=5 label=1 dot=0 pulse=3000 muted=0 seq=2 badge=unseen dnd=off unseen=1 total=5 "
          + "source=inbox stale=0",
        "OK",
      ])
  }

  @Test func oneSourcesConnectionAtATimeAndItsRequestsAreItsOwn() {
    _ = sources()
    let other = turns.peer()
    turns.send(other, "SOURCES attach", "SOURCE inbox release mail", "SOURCES config ok")
    turns.endTurn()
    #expect(
      turns.take(other) == [
        "ERR sources-taken Another connection is the sources program already; one at a time",
        "ERR not-sources Only the sources connection (SOURCES attach) sends this",
        "ERR not-sources Only the sources connection (SOURCES attach) sends this",
      ])
  }

  @Test func anotherConnectionsCountingWritesAreRefusedAndClicksWork() {
    _ = sources()
    let client = turns.peer()
    turns.send(client, "INCR mail", "SET mail 9", "SET mail 9 new=9", "DECR mail")
    turns.endTurn()
    let refusal = "ERR sourced 'mail' is counted by source 'inbox'; CLEAR and SEEN work"
    #expect(turns.take(client) == [refusal, refusal, refusal, refusal])
    turns.send(client, "CLEAR mail")
    turns.endTurn()
    #expect(
      turns.take(client) == [
        "STATE mail count=4 label=◦ dot=0 pulse=3000 muted=0 seq=3 badge=unseen dnd=off unseen=0 total=4 "
          + "source=inbox stale=0",
        "OK",
      ])
  }

  @Test func aClearUpToATotalIsHandedToAMarkReadSource() {
    let sources = sources()
    let client = turns.peer()
    turns.send(client, "CLEAR mail upto=3", "CLEAR mail", "CLEAR mail upto=4")
    turns.endTurn()
    #expect(turns.take(sources) == ["CLEARED mail upto=3", "CLEARED mail upto=4"], "a bare CLEAR only marks seen")
    #expect(turns.store.channel(named: name("mail")).count == 4)
    let seenOnly = SourcesTurnTests()
    let quiet = seenOnly.sources(onClear: "seen")
    seenOnly.turns.send(seenOnly.turns.peer(), "CLEAR mail upto=4")
    seenOnly.turns.endTurn()
    #expect(seenOnly.turns.take(quiet).isEmpty)
  }

  @Test func statusesAreListedAndAnErrorMakesTheChannelsStale() {
    let sources = sources()
    let watcher = turns.watcher("WATCH mail")
    turns.clock.wall = 1_764_620_123_456
    turns.send(
      sources, "SOURCE inbox status kind=maildir state=ok channels=1 count=4 changed=1764620000123",
      "SOURCE lists status kind=notmuch state=retrying channels=2 count=7 retry_at=1764620135456 error=locked  db",
      "SOURCES config error=badged.conf:12: Unknown key 'fodlers' in [source.mail]")
    turns.endTurn()
    #expect(turns.take(sources) == ["OK", "OK", "OK"])
    #expect(turns.take(watcher).isEmpty, "lists counts no channel claimed here")
    let client = turns.peer()
    turns.send(client, "SOURCES")
    turns.endTurn()
    #expect(
      turns.take(client) == [
        "SOURCES attached=1 sources=2 config_error=badged.conf:12: Unknown key 'fodlers' in [source.mail]",
        "SOURCE inbox kind=maildir state=ok channels=1 count=4 changed=1764620000123",
        "SOURCE lists kind=notmuch state=retrying channels=2 count=7 retry_at=1764620135456 error=locked  db",
        "OK",
      ])
    turns.send(sources, "SOURCE inbox status kind=maildir state=error channels=1 count=4 error=gone")
    turns.endTurn()
    #expect(
      turns.take(watcher) == [
        "EVENT mail count=4 label=4 dot=0 pulse=3000 muted=0 seq=3 badge=unseen dnd=off unseen=4 total=4 "
          + "source=inbox stale=1 since=1764620123"
      ])
    turns.send(sources, "SOURCE inbox status kind=maildir state=ok channels=1 count=4")
    turns.endTurn()
    #expect(turns.take(watcher).first?.hasSuffix("source=inbox stale=0") == true)
  }

  @Test func theSourcesLeavingMakesEveryClaimedChannelStaleAndTheListingEmpty() {
    let sources = sources()
    let watcher = turns.watcher("WATCH mail")
    turns.core.closed(sources)
    #expect(turns.core.bridgeLeftMirrors)
    turns.clock.wall = 1_764_620_123_456
    turns.core.bridgeWentAway()
    turns.endTurn()
    #expect(!turns.core.bridgeLeftMirrors)
    #expect(turns.take(watcher).first?.hasSuffix("source=inbox stale=1 since=1764620123") == true)
    let client = turns.peer()
    turns.send(client, "SOURCES", "INCR mail")
    turns.endTurn()
    #expect(
      turns.take(client) == [
        "SOURCES attached=0 sources=0", "OK",
        "ERR sourced 'mail' is counted by source 'inbox'; CLEAR and SEEN work",
      ])
    let again = turns.peer()
    turns.send(again, "SOURCES attach", "SOURCE inbox claim mail on_clear=seen")
    turns.endTurn()
    #expect(turns.take(again).dropFirst().first?.hasSuffix("source=inbox stale=0") == true, "claimed again: fresh")
  }

  @Test func aClaimOfAnotherSourcesChannelOrAMirrorIsRefusedAndAReleaseFreesIt() {
    let sources = sources()
    turns.send(sources, "SOURCE other claim mail on_clear=seen", "SOURCE inbox release mail")
    turns.endTurn()
    #expect(
      turns.take(sources) == [
        "ERR claimed 'mail' is claimed by source 'inbox'",
        "STATE mail count=4 label=4 dot=0 pulse=3000 muted=0 seq=3 badge=count dnd=off unseen=4 total=4",
        "OK",
      ])
    let bridge = turns.peer()
    turns.send(bridge, "BRIDGE host=laptop", "MIRROR ci owner=server count=3 total=10")
    turns.send(sources, "SOURCE inbox claim ci on_clear=seen")
    turns.endTurn()
    #expect(turns.take(sources) == ["ERR mirrored 'ci' is owned by server; configure it there"])
    let client = turns.peer()
    turns.send(client, "INCR mail")
    turns.endTurn()
    #expect(turns.take(client).last == "OK")
  }

  @Test func aReloadIsPushedToTheSourcesConnection() {
    let sources = sources()
    turns.core.reconfigure(DaemonConfig())
    turns.endTurn()
    #expect(turns.take(sources) == ["RELOADED"])
  }
}
