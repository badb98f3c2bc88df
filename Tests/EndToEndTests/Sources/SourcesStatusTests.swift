import Foundation
import TestSupport
import Testing

/// The daemon's side of sources against the real daemon: a client that attaches as the sources
/// program over a raw socket, claims a channel and reports its counts; another client's
/// counting writes refused, its click marking seen and handed to the source as a watermark;
/// the channel stale once the program goes; and what `badgectl sources`, `get` and `list` say.
@Suite struct SourcesStatusTests {
  /// The sources program's connection with `mail` claimed (`mark-read`) and reported at 4 items.
  static func sources(_ daemon: DaemonProcess) throws -> RawClient {
    let sources = try daemon.client()
    #expect(try sources.request("SOURCES attach") == ["OK"])
    let claim = try sources.request("SOURCE inbox claim mail on_clear=mark-read")
    #expect(claim.count == 2 && claim[0].hasSuffix(" badge=unseen dnd=off unseen=0 total=0 source=inbox stale=0"))
    let report = try sources.request("SET mail 4 new=4 id=src-0badf00d:1")
    #expect(report.count == 2 && field(report[0], "count") == "4" && field(report[0], "total") == "4")
    return sources
  }

  @Test func aSourcesChannelIsCountedByItsSourceAndAClickIsASighting() throws {
    let daemon = try DaemonProcess()
    let sources = try Self.sources(daemon)
    let client = try daemon.client()
    #expect(
      try client.request("INCR mail") == ["ERR sourced 'mail' is counted by source 'inbox'; CLEAR and SEEN work"])
    #expect(
      try client.request("SET mail 9 new=9") == [
        "ERR sourced 'mail' is counted by source 'inbox'; CLEAR and SEEN work"
      ])
    // A click: the items are marked seen, the count stays, and the watermark goes to the source.
    let click = try client.request("CLEAR mail upto=4")
    #expect(field(click[0], "count") == "4" && field(click[0], "unseen") == "0" && field(click[0], "label") == "◦")
    #expect(try sources.readLine() == "CLEARED mail upto=4")
    // One item read elsewhere and one arrived: the count stays, and the new one pulses.
    let turn = try sources.request("SET mail 4 new=1 unseen=1 id=src-0badf00d:2")
    #expect(field(turn[0], "unseen") == "1" && field(turn[0], "total") == "5" && field(turn[0], "pulse") != "0")
    // A retry of the report counts once.
    let retry = try sources.request("SET mail 4 new=1 unseen=1 id=src-0badf00d:2")
    #expect(retry.last == "OK repeated" && field(retry[0], "total") == "5")
    // A bare clear only marks seen: nothing is handed over.
    _ = try client.request("CLEAR mail")
    #expect(try sources.request("PING") == ["OK pong"], "a CLEARED would stand before the round trip's reply")
    // (The arrival's pulse window may still run: `pulsing` then stands before the source.)
    let shown = try badgectl(["get", "mail"], socket: daemon.socket).stdout
    #expect(shown.hasPrefix("mail 4 (◦) 0 new") && shown.hasSuffix(" source inbox\n"), "\(shown)")
    // A source the program stopped running leaves the listing; only the program may say so.
    #expect(try sources.request("SOURCE inbox status kind=maildir state=ok channels=1 count=4") == ["OK"])
    #expect(
      try client.request("SOURCES") == [
        "SOURCES attached=1 sources=1", "SOURCE inbox kind=maildir state=ok channels=1 count=4", "OK",
      ])
    #expect(try client.request("SOURCE inbox stopped").first?.hasPrefix("ERR not-sources ") == true)
    #expect(try sources.request("SOURCE inbox stopped now").first?.hasPrefix("ERR bad-arguments ") == true)
    #expect(try sources.request("SOURCE inbox stopped") == ["OK"])
    #expect(try client.request("SOURCES") == ["SOURCES attached=1 sources=0", "OK"])
  }

  @Test func theChannelIsStaleOnceTheProgramGoesAndBadgectlSaysWhy() throws {
    let daemon = try DaemonProcess()
    let none = try badgectl(["sources"], socket: daemon.socket)
    #expect(none.status == 0 && none.stdout == "no sources program attached\n")
    let sources = try Self.sources(daemon)
    let changed = Int(Date().timeIntervalSince1970 * 1000) - 90_000
    #expect(
      try sources.request("SOURCE inbox status kind=maildir state=ok channels=1 count=4 changed=\(changed)") == ["OK"])
    let listed = try badgectl(["sources"], socket: daemon.socket)
    #expect(
      listed.stdout == """
        NAME   KIND     CHANNELS  COUNT  LAST CHANGE  STATE
        inbox  maildir  1         4      1 min ago    ok

        """)
    let json = try badgectl(["sources", "--json"], socket: daemon.socket)
    #expect(
      json.stdout == """
        {"attached":true,"sources":1}
        {"name":"inbox","kind":"maildir","state":"ok","channels":1,"count":4,"changed":\(changed)}

        """)
    let watcher = try daemon.client()
    _ = try watcher.request("WATCH mail")
    sources.close()
    let stale = try #require(try watcher.readLine(timeout: 10))
    #expect(stale.hasPrefix("EVENT mail ") && stale.contains(" source=inbox stale=1 since="), "\(stale)")
    let list = try badgectl(["list", "--format", "json"], socket: daemon.socket).stdout
    #expect(list.contains(#""source":"inbox","stale":true,"since":"#), "\(list)")
    #expect(try badgectl(["sources"], socket: daemon.socket).stdout == "no sources program attached\n")
    // The program comes back and claims its channel again: fresh.
    let again = try daemon.client()
    #expect(try again.request("SOURCES attach") == ["OK"])
    let claim = try again.request("SOURCE inbox claim mail on_clear=seen")
    #expect(claim[0].hasSuffix(" source=inbox stale=0"))
  }

  @Test func badgectlCannotReachADaemonThatIsNotThere() throws {
    let folder = try TemporaryFolder()
    let result = try badgectl(["sources"], socket: folder.file("none.sock"))
    #expect(result.status == 69)
  }
}
