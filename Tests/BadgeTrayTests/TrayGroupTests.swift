import BadgeCore
import BadgeTray
import Testing

/// `TrayGroup`: which channels an item holds, the one badge they make, its status, title,
/// tooltip and words for screen readers.
@Suite struct TrayGroupTests {
  static func group(_ pattern: String = "*", maxLabel: Int = 99, _ channels: ChannelSnapshot...) -> TrayGroup {
    var group = TrayGroup(pattern: ChannelPattern(pattern)!, maxLabel: maxLabel)
    for channel in channels { _ = group.apply(channel) }
    return group
  }

  @Test func itHoldsTheMatchingChannelsSortedByName() {
    var group = TrayGroup(pattern: ChannelPattern("chat:*")!, maxLabel: 99)
    let changes = [
      group.apply(channel("chat:zoe", 1)), group.apply(channel("mail", 4)), group.apply(channel("chat:alice", 2)),
      group.apply(channel("chat:bob", 0)),
    ]
    #expect(changes == [true, false, true, true])
    #expect(group.channels.map(\.channel) == ["chat:alice", "chat:bob", "chat:zoe"])
  }

  @Test func anEventReplacesItsChannelAndOnlyAChangeCounts() {
    var group = Self.group("*", channel("mail", 3, seq: 4))
    let changes = [group.apply(channel("mail", 3, seq: 4)), group.apply(channel("mail", 5, seq: 5))]
    #expect(changes == [false, true])
    #expect(group.channels.map(\.count) == [5])
    group.removeAll()
    #expect(group.channels.isEmpty)
  }

  @Test func theBadgeCountsTheChannelsNotMuted() {
    let badge = Self.group("*", channel("a", 3, seq: 7), channel("b", 4, muted: true, seq: 9), channel("c", 2))
      .aggregate(online: true)
    #expect(badge.channel == "*")
    #expect(badge.count == 5)
    #expect(badge.label == "5")
    #expect(!badge.muted)
    #expect(!badge.dot)
    #expect(badge.seq == 9)
    #expect(badge.total == nil)
    #expect(badge.online)
  }

  @Test func allMutedShowsTheirSumMuted() {
    let badge = Self.group("chat:*", channel("chat:a", 3, muted: true), channel("chat:b", 4, muted: true))
      .aggregate(online: false)
    #expect(badge.channel == "chat:*")
    #expect(badge.count == 7)
    #expect(badge.muted)
    #expect(!badge.online)
  }

  @Test func theLabelFollowsTheTraysMaxLabel() {
    #expect(Self.group("*", channel("a", 60), channel("b", 40)).aggregate(online: true).label == "99+")
    #expect(Self.group("*", channel("a", 60), channel("b", 39)).aggregate(online: true).label == "99")
    #expect(Self.group("*", maxLabel: 9, channel("a", 10)).aggregate(online: true).label == "9+")
    #expect(Self.group("*").aggregate(online: true).label == "")
    #expect(Self.group("*").aggregate(online: true).count == 0)
  }

  @Test func aDotWhenEveryChannelWithACountIsDotStyle() {
    let dots = Self.group("*", channel("a", 3, dot: true), channel("b", 1, dot: true), channel("c", 0))
    #expect(dots.aggregate(online: true).dot)
    #expect(dots.aggregate(online: true).label == "•")
    let mixed = Self.group("*", channel("a", 3, dot: true), channel("c", 1))
    #expect(!mixed.aggregate(online: true).dot)
    #expect(mixed.aggregate(online: true).label == "4")
    // A muted dot channel is not counted, so it does not make the badge a dot.
    let mutedDot = Self.group("*", channel("a", 3, dot: true, muted: true), channel("c", 1))
    #expect(!mutedDot.aggregate(online: true).dot)
    #expect(!Self.group("*", channel("a", 0, dot: true)).aggregate(online: true).dot)
  }

  @Test func thePulseIsTheLongestWindow() {
    let group = Self.group("*", channel("a", 1, pulseMs: 1200), channel("b", 1, pulseMs: 2900), channel("c", 1))
    #expect(group.aggregate(online: true).pulseMs == 2900)
    #expect(Self.group("*", channel("a", 1)).aggregate(online: true).pulseMs == 0)
  }

  @Test func status() {
    #expect(Self.group("*").status == "Passive")
    #expect(Self.group("*", channel("a", 0), channel("b", 0)).status == "Passive")
    #expect(Self.group("*", channel("a", 2)).status == "Active")
    #expect(Self.group("*", channel("a", 2), channel("b", 1, pulseMs: 3000)).status == "NeedsAttention")
  }

  @Test func doNotDisturbLeavesOutTheBadgesItHides() {
    var chat = channel("chat", 5)
    chat.silenced = .hide
    var pager = channel("pager", 2)
    pager.silenced = .hide
    let mixed = Self.group("*", channel("mail", 2), chat)
    #expect(mixed.aggregate(online: true).count == 2)
    #expect(mixed.aggregate(online: true).silenced == nil)
    #expect(mixed.status == "Active")
    // Every channel with a count hidden: the badge is hidden as theirs are.
    let hidden = Self.group("*", chat, pager, channel("mail", 0))
    #expect(hidden.aggregate(online: true).count == 7)
    #expect(hidden.aggregate(online: true).silenced == .hide)
    #expect(hidden.status == "Passive")
    #expect(hidden.toolTip(online: true).body == "chat: 5 (do not disturb)\nmail: 0\npager: 2 (do not disturb)")
  }

  @Test func doNotDisturbDimsTheBadgeWhenEveryChannelWithACountIsDimmed() {
    var chat = channel("chat", 5)
    chat.silenced = .dim
    #expect(Self.group("*", chat, channel("mail", 0)).aggregate(online: true).silenced == .dim)
    #expect(Self.group("*", chat, channel("mail", 0)).aggregate(online: true).count == 5)
    #expect(Self.group("*", chat, channel("mail", 1)).aggregate(online: true).silenced == nil)
  }

  @Test func emptyHideShowsTheItemOnlyWithACount() {
    #expect(Self.group("*").isShown(.passive))
    #expect(!Self.group("*").isShown(.hide))
    #expect(!Self.group("*", channel("a", 0)).isShown(.hide))
    #expect(Self.group("*", channel("a", 1)).isShown(.hide))
  }

  @Test func title() {
    #expect(Self.group("*").title == "badged")
    #expect(Self.group("mail").title == "badged: mail")
    #expect(Self.group("chat:*").title == "badged: chat:*")
  }

  @Test func theTooltipListsEveryChannel() {
    let group = Self.group(
      "*", channel("mail", 3), channel("chat:alice", 1, muted: true),
      channel("ci", 2, dot: true, mirror: MirrorState(owner: "laptop", stale: true)),
      channel("build", 120), channel("news", 0), channel("phone", 4, mirror: MirrorState(owner: "phone")),
      channel("imap", 6, source: SourceMark(name: "work", stale: true)))
    let tip = group.toolTip(online: true)
    #expect(tip.title == "badged")
    #expect(
      tip.body
        == "build: 99+\nchat:alice: 1 (muted)\nci: • (from laptop, stale)\nimap: 6 (stale)\nmail: 3\nnews: 0\n"
        + "phone: 4 (from phone)")
    #expect(group.toolTip(online: false) == ("badged", "badged is not running"))
  }

  @Test func accessibleDescription() {
    #expect(Self.group("*").accessibleDescription == "no unread")
    #expect(Self.group("*", channel("a", 3), channel("b", 200)).accessibleDescription == "203 unread")
  }

  @Test func openingPicksTheAppChannelWithMostUnread() {
    func opened(_ group: TrayGroup) -> String? {
      if case .open(let desktopID, _, _) = group.activation(.open) { return desktopID }
      return nil
    }
    #expect(opened(Self.group("*", channel("mail", 30))) == nil)
    #expect(opened(Self.group("*", channel("app:a", 0))) == nil)
    let group = Self.group(
      "*", channel("mail", 30), channel("app:org.telegram.desktop", 2), channel("notify:thunderbird", 5),
      channel("app:zulip", 5))
    // Equal counts: the first by name.
    #expect(opened(group) == "zulip")
    var more = group
    _ = more.apply(channel("notify:thunderbird", 6))
    #expect(opened(more) == "thunderbird")
  }
}
