import BadgeBridge
import BadgeCore
import Testing

/// Counting notifications per app from what a monitor sees.
@Suite struct NotificationCounterTests {
  /// The arguments of a `Notify` call.
  static func notify(_ app: String, replaces: UInt64 = 0, desktopEntry: String? = nil) -> [BusValue] {
    let hints = desktopEntry.map { [BusProperty(key: "desktop-entry", value: .string($0))] } ?? []
    return [.string(app), .unsigned(replaces), .string(""), .string("summary"), .string("body"), .array([]), .dictionary(hints), .signed(-1)]
  }

  @Test func theDesktopEntryHintNamesTheChannelElseTheAppName() {
    #expect(NotificationCounter.channel(appName: "Firefox", desktopEntry: nil)?.description == "notify:Firefox")
    #expect(NotificationCounter.channel(appName: "x", desktopEntry: "org.gnome.Geary")?.description == "notify:org.gnome.Geary")
    #expect(NotificationCounter.channel(appName: "x", desktopEntry: "org.gnome.Geary.desktop")?.description == "notify:org.gnome.Geary")
    #expect(NotificationCounter.channel(appName: "My App", desktopEntry: "")?.description == "notify:My_App")
    #expect(NotificationCounter.channel(appName: "", desktopEntry: nil) == nil)
  }

  @Test func aNotificationCountsOnceAndAReplacementNotAgain() {
    var counter = NotificationCounter()
    #expect(counter.notify(caller: ":1.5", serial: 7, arguments: Self.notify("mail"))?.description == "notify:mail")
    counter.answered(caller: ":1.5", replySerial: 7, arguments: [.unsigned(41)])
    #expect(counter.notify(caller: ":1.5", serial: 8, arguments: Self.notify("mail", replaces: 41)) == nil)
    counter.answered(caller: ":1.5", replySerial: 8, arguments: [.unsigned(41)])
    #expect(counter.closed(arguments: [.unsigned(41), .unsigned(2)])?.description == "notify:mail")
    #expect(counter.closed(arguments: [.unsigned(41), .unsigned(2)]) == nil, "closed once")
  }

  @Test(arguments: [(UInt64(1), false), (2, true), (3, false), (4, false)])
  func onlyADismissalTakesOneOff(reason: UInt64, takesOff: Bool) {
    var counter = NotificationCounter()
    _ = counter.notify(caller: ":1.5", serial: 1, arguments: Self.notify("mail"))
    counter.answered(caller: ":1.5", replySerial: 1, arguments: [.unsigned(9)])
    #expect((counter.closed(arguments: [.unsigned(9), .unsigned(reason)]) != nil) == takesOff)
  }

  @Test func anActionTakesOneOffAndTheCloseAfterItNothing() {
    var counter = NotificationCounter()
    _ = counter.notify(caller: ":1.5", serial: 1, arguments: Self.notify("chat"))
    counter.answered(caller: ":1.5", replySerial: 1, arguments: [.unsigned(3)])
    #expect(counter.actionInvoked(arguments: [.unsigned(3), .string("default")])?.description == "notify:chat")
    #expect(counter.closed(arguments: [.unsigned(3), .unsigned(2)]) == nil)
  }

  @Test func answersAreMatchedToTheirCallerAndSerial() {
    var counter = NotificationCounter()
    _ = counter.notify(caller: ":1.5", serial: 1, arguments: Self.notify("a"))
    _ = counter.notify(caller: ":1.6", serial: 1, arguments: Self.notify("b"))
    counter.answered(caller: ":1.6", replySerial: 1, arguments: [.unsigned(20)])
    counter.answered(caller: ":1.5", replySerial: 1, arguments: [.unsigned(10)])
    counter.answered(caller: ":1.7", replySerial: 1, arguments: [.unsigned(30)])  // no such call
    #expect(counter.closed(arguments: [.unsigned(10), .unsigned(2)])?.description == "notify:a")
    #expect(counter.closed(arguments: [.unsigned(20), .unsigned(2)])?.description == "notify:b")
    #expect(counter.closed(arguments: [.unsigned(30), .unsigned(2)]) == nil)
  }

  @Test func malformedMessagesCountNothing() {
    var counter = NotificationCounter()
    #expect(counter.notify(caller: ":1.5", serial: 1, arguments: [.string("mail")]) == nil)
    #expect(counter.closed(arguments: [.string("x"), .unsigned(2)]) == nil)
    #expect(counter.actionInvoked(arguments: []) == nil)
  }
}
