import BadgeCore
import BadgeSources
import Testing

/// `ReloadPlan`: kept, restarted, started and stopped sources, and the channels released.
@Suite struct ReloadPlanTests {
  static let mail = "[source.mail]\nkind = maildir\npath = ~/Mail\n"
  static let updates = "[source.updates]\nkind = exec\ncommand = apt-updates\n"
  static let lists = "[source.nm]\nkind = notmuch\nquery.lists = tag:lists\n"

  @Test func aReload() throws {
    let old = try sources(
      Self.mail + Self.updates + Self.lists + "query.ci = tag:ci\n[source.gone]\nkind = files\npath = /q")
    // mail moved down a line, otherwise the same.
    let new = try sources(
      "\n" + Self.mail + Self.updates + "interval_s = 600\n" + Self.lists
        + "[source.dl]\nkind = files\npath = ~/Downloads")
    let plan = ReloadPlan(old: old, new: new)
    #expect(plan.kept == ["mail"])
    #expect(plan.restarted == ["updates", "nm"])
    #expect(plan.started == ["dl"])
    #expect(plan.stopped == ["gone"])
    #expect(plan.released.map(\.description) == ["nm:ci", "gone"])
  }

  @Test func theSameFileChangesNothing() throws {
    let config = try sources("[source.a]\nkind = exec\ncommand = true\n[source.b]\nkind = files\npath = /b")
    #expect(
      ReloadPlan(old: config, new: config)
        == {
          var plan = ReloadPlan(old: SourcesConfig(), new: SourcesConfig())
          plan.kept = ["a", "b"]
          return plan
        }())
  }

  @Test func aChannelMovingBetweenSourcesIsNotReleased() throws {
    let old = try sources("[source.a]\nkind = exec\ncommand = true\nchannel = x")
    let new = try sources("[source.b]\nkind = exec\ncommand = true\nchannel = x")
    let plan = ReloadPlan(old: old, new: new)
    #expect(plan.stopped == ["a"] && plan.started == ["b"] && plan.released.isEmpty)
  }
}
