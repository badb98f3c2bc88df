import BadgeCore
import BadgeProtocol
import Testing

@testable import BadgeCtl

/// What badgectl makes of sources: `badgectl sources`' table and JSON, and a claimed channel's
/// plain and JSON forms in `get` and `list`.
@Suite struct SourcesOutputTests {
  static let now = 1_764_620_030_123
  static let statuses = [
    SourceStatus(name: "mail", kind: "maildir", state: .ok, channels: 1, count: 5, changed: 1_764_620_000_123),
    SourceStatus(
      name: "lists", kind: "notmuch", state: .retrying, channels: 2, count: 7, retryAt: 1_764_620_042_000,
      error: "database locked"),
    SourceStatus(name: "todo", kind: "exec", state: .error, channels: 1, count: 0, error: "line 'x' is not a count"),
    SourceStatus(name: "dl", kind: "files", state: .recounting, channels: 1, count: 2, changed: 1_764_620_030_000),
  ]

  @Test func theTableHasAColumnForEachFigure() {
    let overview = SourcesOverview(attached: true, sources: 4)
    #expect(
      SourcesCommand.describe(overview, Self.statuses, nowMs: Self.now) == """
        NAME   KIND     CHANNELS  COUNT  LAST CHANGE  STATE
        mail   maildir  1         5      30 s ago     ok
        lists  notmuch  2         7      -            retrying in 12 s (database locked)
        todo   exec     1         0      -            error: line 'x' is not a count
        dl     files    1         2      just now     recounting

        """)
  }

  @Test func withoutAProgramOrWithABrokenConfigItSaysSo() {
    #expect(
      SourcesCommand.describe(SourcesOverview(attached: false, sources: 0), [], nowMs: Self.now)
        == "no sources program attached\n")
    #expect(
      SourcesCommand.describe(
        SourcesOverview(attached: true, sources: 0, configError: "badged.conf:12: Unknown key 'fodlers'"), [],
        nowMs: Self.now) == "config error: badged.conf:12: Unknown key 'fodlers'\nno sources reported yet\n")
  }

  @Test func agesAreInTheirLargestUnit() {
    #expect(
      [0, 999, 1_000, 59_999, 60_000, 3_599_999, 3_600_000, 86_400_000, -5].map(SourcesCommand.ago) == [
        "just now", "just now", "1 s ago", "59 s ago", "1 min ago", "59 min ago", "1 h ago", "1 d ago", "just now",
      ])
  }

  @Test func jsonIsTheProgramThenEachSource() {
    let text = SourcesCommand.json(
      SourcesOverview(attached: true, sources: 2, configError: "x"), Array(Self.statuses.prefix(2)))
    #expect(
      text == """
        {"attached":true,"sources":2,"config_error":"x"}
        {"name":"mail","kind":"maildir","state":"ok","channels":1,"count":5,"changed":1764620000123}
        {"name":"lists","kind":"notmuch","state":"retrying","channels":2,"count":7,"retry_at":1764620042000,"error":"database locked"}

        """)
  }

  @Test func aClaimedChannelNamesItsSource() throws {
    let line = "STATE mail count=4 label=◦ dot=0 pulse=0 muted=0 seq=9 badge=unseen dnd=off unseen=0 total=11"
    guard case .state(let fresh) = ReplyLine(line + " source=mail stale=0"),
      case .state(let stale) = ReplyLine(line + " source=mail stale=1 since=1764620000")
    else {
      Issue.record("a claimed channel's state line parses")
      return
    }
    #expect(SnapshotFormat.plainLine(fresh) == "mail 4 (◦) 0 new source mail")
    #expect(SnapshotFormat.plainLine(stale) == "mail 4 (◦) 0 new source mail stale")
    #expect(
      SnapshotFormat.jsonLine(stale)
        == #"{"channel":"mail","count":4,"label":"◦","dot":false,"pulse":0,"muted":false,"seq":9,"badge":"unseen","dnd":"off","unseen":0,"total":11,"online":true,"source":"mail","stale":true,"since":1764620000}"#
    )
  }
}
