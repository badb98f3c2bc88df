import BadgeCore
import BadgeProtocol
import BadgeTray
import Testing

/// What the item's own clicks and wheel do (`[tray] activate` and `scroll`), and the requests
/// every action sends.
@Suite struct TrayActionTests {
  static func group(_ pattern: String = "*", _ channels: ChannelSnapshot...) -> TrayGroup {
    var group = TrayGroup(pattern: ChannelPattern(pattern)!, maxLabel: 99)
    for channel in channels { _ = group.apply(channel) }
    return group
  }

  static func name(_ text: String) -> ChannelName { ChannelName(text)! }

  @Test func clearingTheGroupClearsEachChannelWithACountUpToItsTotal() {
    let group = Self.group("*", channel("mail", 3, total: 40), channel("news", 0, total: 7), channel("ci", 1, total: 2))
    #expect(
      group.clearAction
        == .clear([.init(channel: Self.name("ci"), upTo: 2), .init(channel: Self.name("mail"), upTo: 40)]))
    #expect(Self.group("*", channel("news", 0)).clearAction == nil)
    #expect(Self.group("*").clearAction == nil)
  }

  @Test func openOpensTheAppWithMostUnreadElseClears() {
    let apps = Self.group("*", channel("mail", 30, total: 30), channel("app:zulip", 2, total: 5))
    #expect(apps.activation(.open) == .open(desktopID: "zulip", channel: Self.name("app:zulip"), total: 5))
    let noApps = Self.group("*", channel("mail", 3, total: 3), channel("app:zulip", 0, total: 5))
    #expect(noApps.activation(.open) == .clear([.init(channel: Self.name("mail"), upTo: 3)]))
    #expect(Self.group("*").activation(.open) == nil)
  }

  @Test func clearAndNone() {
    let group = Self.group("*", channel("app:zulip", 2, total: 5))
    #expect(group.activation(.clear) == .clear([.init(channel: Self.name("app:zulip"), upTo: 5)]))
    #expect(group.activation(TrayConfig.Activate.none) == nil)
  }

  @Test func stepScrollsTheOnlyChannelByItsStep() {
    var mail = channel("mail", 3)
    mail.step = 5
    let group = Self.group("mail", mail)
    #expect(group.scrollAction(delta: 120, orientation: "vertical", .step) == .step(channel: Self.name("mail"), by: 5))
    #expect(group.scrollAction(delta: -1, orientation: "vertical", .step) == .step(channel: Self.name("mail"), by: -5))
    #expect(group.scrollAction(delta: 0, orientation: "vertical", .step) == nil)
    #expect(group.scrollAction(delta: 1, orientation: "horizontal", .step) == nil)
    #expect(group.scrollAction(delta: 1, orientation: "vertical", TrayConfig.Scroll.none) == nil)
  }

  @Test func stepDoesNothingOnSeveralChannelsNoneOrBelowZero() {
    #expect(
      Self.group("*", channel("a", 1), channel("b", 1)).scrollAction(delta: 1, orientation: "vertical", .step) == nil)
    #expect(Self.group("*").scrollAction(delta: 1, orientation: "vertical", .step) == nil)
    let empty = Self.group("mail", channel("mail", 0))
    #expect(empty.scrollAction(delta: -1, orientation: "vertical", .step) == nil)
    #expect(empty.scrollAction(delta: 1, orientation: "vertical", .step) == .step(channel: Self.name("mail"), by: 1))
  }

  @Test func theRequestsOfEachAction() {
    let mail = Self.name("mail")
    #expect(TrayMenu.Action.open(desktopID: "zulip", channel: Self.name("app:zulip"), total: 5).requests == [])
    #expect(
      TrayMenu.Action.clear([.init(channel: mail, upTo: 3), .init(channel: Self.name("ci"), upTo: nil)]).requests
        == [.write(mail, .clear(upTo: 3)), .write(Self.name("ci"), .clear(upTo: nil))])
    #expect(TrayMenu.Action.dnd(on: true).requests == [.dnd(.on(ms: nil))])
    #expect(TrayMenu.Action.dnd(on: false).requests == [.dnd(.off)])
    #expect(TrayMenu.Action.step(channel: mail, by: 2).requests == [.write(mail, .incr(2))])
    #expect(TrayMenu.Action.step(channel: mail, by: -2).requests == [.write(mail, .decr(2))])
    // On the wire, as badged reads them.
    #expect(
      TrayMenu.Action.clear([.init(channel: mail, upTo: 3)]).requests.map { RequestEncoder.line($0) }
        == ["CLEAR mail upto=3"])
  }
}
