import BadgeBus
import BadgeCore
import Testing

/// Reading an `Update`'s body, and the table of apps with its bound.
@Suite struct LauncherEntryTableTests {
  static let visible = [
    BusProperty(key: "count", value: .signed(1)), BusProperty(key: "count-visible", value: .boolean(true)),
  ]

  /// An `Update` for `uri` with `properties`, read as the daemon reads a signal's body.
  static func update(_ uri: String, _ properties: [BusProperty] = visible) throws -> LauncherEntryUpdate {
    try LauncherEntryUpdate(signature: "sa{sv}", arguments: { [.string(uri), .dictionary(properties)] })
  }

  @Test func anUpdatesBodyNamesTheAppsChannel() throws {
    let update = try Self.update("application://org.telegram.desktop.desktop")
    #expect(update.channel.description == "app:org.telegram.desktop")
    #expect(update.properties == Self.visible)
  }

  @Test func aBodyOfAnotherSignatureIsNotReadAtAll() {
    var read = false
    #expect(throws: LauncherEntryUpdate.Unread.signature("s")) {
      try LauncherEntryUpdate(
        signature: "s",
        arguments: {
          read = true
          return [.string("application://a.desktop")]
        })
    }
    #expect(!read)
    #expect("\(LauncherEntryUpdate.Unread.signature("s"))" == "with signature 's', expected 'sa{sv}'")
  }

  @Test func aURIWithoutADesktopIDIsNoUpdate() {
    #expect(throws: LauncherEntryUpdate.Unread.noDesktopID(uri: "application://.desktop")) {
      try Self.update("application://.desktop")
    }
    #expect(throws: LauncherEntryUpdate.Unread.signature("sa{sv}"), "values that are not the signature's") {
      try LauncherEntryUpdate(signature: "sa{sv}", arguments: { [.string("application://a.desktop")] })
    }
  }

  @Test func aSenderLeavingOrphansOnlyTheChannelsNoOtherSenderUpdates() throws {
    var table = LauncherEntryTable()
    let a = try Self.update("a", [BusProperty(key: "count", value: .signed(1))])
    let b = try Self.update("b", [BusProperty(key: "count", value: .signed(2))])
    _ = table.update(a, from: ":1.1", limit: 10)
    _ = table.update(b, from: ":1.1", limit: 10)
    _ = table.update(try Self.update("b", [BusProperty(key: "count", value: .signed(3))]), from: ":1.2", limit: 10)
    #expect(table.appCount == 3)
    #expect(table.senderLeft(":1.1") == [a.channel])
    #expect(table.state(of: a.channel) == nil, "a new process of the app starts afresh")
    #expect(table.state(of: b.channel)?.count == 3)
    #expect(table.appCount == 1)
    #expect(table.senderLeft(":1.1") == [])
    #expect(table.senderLeft(":1.2") == [b.channel])
    #expect(table.appCount == 0)
  }

  @Test func losingTheBusOrphansEveryChannel() throws {
    var table = LauncherEntryTable()
    _ = table.update(try Self.update("b"), from: ":1.1", limit: 10)
    _ = table.update(try Self.update("a"), from: ":1.2", limit: 10)
    #expect(table.allSendersLeft() == [ChannelName("app:a")!, ChannelName("app:b")!])
    #expect(table.allSendersLeft() == [])
    #expect(table.appCount == 0)
  }

  @Test func anAppPastTheLimitIsRefusedAndLeavesNothing() throws {
    var table = LauncherEntryTable()
    for i in 0..<3 {
      #expect(table.update(try Self.update("app\(i)"), from: ":1.1", limit: 3) == LauncherEntryEffect(count: 1))
    }
    #expect(table.update(try Self.update("app3"), from: ":1.1", limit: 3) == nil)
    #expect(
      table.update(try Self.update("app0"), from: ":1.2", limit: 3) == nil,
      "another connection for a known id is an app too")
    #expect(table.state(of: ChannelName("app:app3")!) == nil)
    #expect(table.appCount == 3)
    // An app already tracked still updates.
    let again = try Self.update("app1", [BusProperty(key: "count", value: .signed(5))])
    #expect(table.update(again, from: ":1.1", limit: 3) == LauncherEntryEffect(count: 5))
    // Once one leaves, there is room again.
    #expect(table.senderLeft(":1.1").count == 3)
    #expect(table.update(try Self.update("app3"), from: ":1.1", limit: 3) == LauncherEntryEffect(count: 1))
  }

  @Test func aForgottenAppFreesItsPlaceAndKeepsAnotherSendersState() throws {
    var table = LauncherEntryTable()
    let shared = try Self.update("shared")
    _ = table.update(shared, from: ":1.1", limit: 2)
    _ = table.update(shared, from: ":1.2", limit: 2)
    table.forget(shared.channel, from: ":1.1")
    #expect(table.appCount == 1)
    #expect(table.state(of: shared.channel)?.visibleCount == 1, ":1.2 still sends for it")
    table.forget(shared.channel, from: ":1.1")  // twice: nothing more
    #expect(table.appCount == 1)
    table.forget(shared.channel, from: ":1.2")
    #expect(table.appCount == 0)
    #expect(table.state(of: shared.channel) == nil)
    #expect(table.senderLeft(":1.2") == [], "nothing of it is left")
  }

  /// One connection sending for ever new ids: the table never holds more than the limit.
  @Test func aFloodOfIdsHoldsAtMostTheLimit() throws {
    var table = LauncherEntryTable()
    var refused = 0
    for i in 0..<10_000 where table.update(try Self.update("flood.\(i)"), from: ":1.9", limit: 64) == nil {
      refused += 1
    }
    #expect(refused == 10_000 - 64)
    #expect(table.appCount == 64)
    #expect(table.senderLeft(":1.9").count == 64)
    #expect(table.appCount == 0)
  }
}
