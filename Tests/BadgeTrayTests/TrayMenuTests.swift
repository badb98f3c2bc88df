import BadgeCore
import BadgeTray
import Testing

/// `TrayMenu`: each layout's entries, fresh ids per revision, and what a click on an id of a
/// layout does, older layouts included.
@Suite struct TrayMenuTests {
  static func group(_ channels: ChannelSnapshot...) -> TrayGroup {
    var group = TrayGroup(pattern: .all, maxLabel: 99)
    for channel in channels { _ = group.apply(channel) }
    return group
  }

  static func name(_ text: String) -> ChannelName { ChannelName(text)! }

  @Test func theLayoutListsTheChannelsThenClearAllAndDoNotDisturb() {
    var menu = TrayMenu()
    #expect(menu.revision == 0)
    let entries = menu.layout(
      for: Self.group(
        channel("mail", 3), channel("alerts", 2, dot: true), channel("ci", 150, mirror: MirrorState(owner: "laptop")),
        channel("chat", 1, muted: true), channel("news", 0), channel("app:zulip", 0)),
      dnd: false)
    #expect(menu.revision == 1)
    #expect(
      entries == [
        .init(id: 1, label: "alerts  •", kind: .standard, enabled: true),
        .init(id: 2, label: "app:zulip  0", kind: .standard, enabled: true),
        .init(id: 3, label: "chat  1 (muted)", kind: .standard, enabled: true),
        .init(id: 4, label: "ci  99+ (laptop)", kind: .standard, enabled: true),
        .init(id: 5, label: "mail  3", kind: .standard, enabled: true),
        .init(id: 6, label: "news  0", kind: .standard, enabled: false),
        .init(id: 7, label: "", kind: .separator, enabled: true),
        .init(id: 8, label: "Clear all", kind: .standard, enabled: true),
        .init(id: 9, label: "Do not disturb", kind: .toggle(on: false), enabled: true),
      ])
    #expect(menu.action(for: 0) == nil)
    #expect(menu.action(for: 7) == nil)
    #expect(menu.action(for: 10) == nil)
  }

  @Test func eachEntrysAction() {
    var menu = TrayMenu()
    let entries = menu.layout(
      for: Self.group(channel("mail", 3, total: 40), channel("app:zulip", 2, total: 9), channel("news", 0)), dnd: true)
    let ids = Dictionary(uniqueKeysWithValues: entries.map { ($0.label, $0.id) })
    #expect(
      menu.action(for: ids["app:zulip  2"]!)
        == .open(desktopID: "zulip", channel: Self.name("app:zulip"), total: 9))
    #expect(menu.action(for: ids["mail  3"]!) == .clear([.init(channel: Self.name("mail"), upTo: 40)]))
    #expect(
      menu.action(for: ids["Clear all"]!)
        == .clear([.init(channel: Self.name("app:zulip"), upTo: 9), .init(channel: Self.name("mail"), upTo: 40)]))
    #expect(menu.action(for: ids["Do not disturb"]!) == .dnd(on: false))
    #expect(entries.last?.kind == .toggle(on: true))
  }

  @Test func clearAllIsDisabledWithNothingToClear() {
    var menu = TrayMenu()
    let entries = menu.layout(for: Self.group(channel("mail", 0)), dnd: false)
    #expect(entries.first { $0.label == "Clear all" }?.enabled == false)
    #expect(menu.layout(for: Self.group(), dnd: false).map(\.label) == ["", "Clear all", "Do not disturb"])
  }

  @Test func everyRevisionHasFreshIds() {
    var menu = TrayMenu()
    let group = Self.group(channel("mail", 3), channel("ci", 1))
    let first = menu.layout(for: group, dnd: false).map(\.id)
    let second = menu.layout(for: group, dnd: false).map(\.id)
    #expect(first == [1, 2, 3, 4, 5])
    #expect(second == [6, 7, 8, 9, 10])
    #expect(menu.revision == 2)
  }

  @Test func anOlderRevisionsEntryClearsUpToWhatItShowed() {
    var menu = TrayMenu()
    let shown = menu.layout(for: Self.group(channel("mail", 3, total: 3)), dnd: false)
    // An INCR arrives: the menu is laid out again with 4, but the host's click names the old entry.
    let latest = menu.layout(for: Self.group(channel("mail", 4, total: 4)), dnd: false)
    #expect(shown[0].label == "mail  3")
    #expect(latest[0].label == "mail  4")
    #expect(menu.action(for: shown[0].id) == .clear([.init(channel: Self.name("mail"), upTo: 3)]))
    #expect(menu.action(for: latest[0].id) == .clear([.init(channel: Self.name("mail"), upTo: 4)]))
    #expect(menu.action(for: shown[2].id) == .clear([.init(channel: Self.name("mail"), upTo: 3)]))
  }

  @Test func aDaemonWithoutTotalsClearsEverything() {
    var menu = TrayMenu()
    var snapshot = channel("mail", 3)
    snapshot.total = nil
    let entries = menu.layout(for: Self.group(snapshot), dnd: false)
    #expect(menu.action(for: entries[0].id) == .clear([.init(channel: Self.name("mail"), upTo: nil)]))
  }

  @Test func idsOlderThanEightRevisionsDoNothing() {
    var menu = TrayMenu()
    let group = Self.group(channel("mail", 3))
    let first = menu.layout(for: group, dnd: false)
    for _ in 2...8 { _ = menu.layout(for: group, dnd: false) }
    #expect(menu.revision == 8)
    #expect(menu.action(for: first[0].id) == .clear([.init(channel: Self.name("mail"), upTo: 3)]))
    #expect(menu.entry(for: first[0].id) == first[0])
    let ninth = menu.layout(for: group, dnd: false)
    #expect(menu.action(for: first[0].id) == nil)
    #expect(menu.action(for: first[3].id) == nil)
    #expect(menu.entry(for: first[0].id) == nil)
    #expect(menu.action(for: ninth[0].id) == .clear([.init(channel: Self.name("mail"), upTo: 3)]))
    #expect(menu.entry(for: ninth[0].id) == ninth[0])
    #expect(menu.latestEntries == ninth)
  }
}
