import BadgeBus
import BadgeCore
import Testing

/// Counting notifications per app from what a monitor sees.
@Suite struct NotificationCounterTests {
  /// The notification daemon's unique name.
  static let server = ":1.3"

  /// The arguments of a `Notify` call.
  static func notify(_ app: String, replaces: UInt64 = 0, desktopEntry: String? = nil) -> [BusValue] {
    let hints = desktopEntry.map { [BusProperty(key: "desktop-entry", value: .string($0))] } ?? []
    return [
      .string(app), .unsigned(replaces), .string(""), .string("summary"), .string("body"), .array([]),
      .dictionary(hints), .signed(-1),
    ]
  }

  @Test func theDesktopEntryHintNamesTheChannelElseTheAppName() {
    #expect(NotificationCounter.channel(appName: "Firefox", desktopEntry: nil)?.description == "notify:Firefox")
    #expect(
      NotificationCounter.channel(appName: "x", desktopEntry: "org.gnome.Geary")?.description
        == "notify:org.gnome.Geary")
    #expect(
      NotificationCounter.channel(appName: "x", desktopEntry: "org.gnome.Geary.desktop")?.description
        == "notify:org.gnome.Geary")
    #expect(NotificationCounter.channel(appName: "My App", desktopEntry: "")?.description == "notify:My_App")
    #expect(NotificationCounter.channel(appName: "", desktopEntry: nil) == nil)
  }

  @Test func aNotificationCountsOnceAndAReplacementNotAgain() {
    var counter = NotificationCounter()
    #expect(counter.notify(caller: ":1.5", serial: 7, arguments: Self.notify("mail"))?.description == "notify:mail")
    counter.answered(server: Self.server, caller: ":1.5", replySerial: 7, arguments: [.unsigned(41)])
    #expect(counter.notify(caller: ":1.5", serial: 8, arguments: Self.notify("mail", replaces: 41)) == nil)
    counter.answered(server: Self.server, caller: ":1.5", replySerial: 8, arguments: [.unsigned(41)])
    #expect(
      counter.closed(sender: Self.server, arguments: [.unsigned(41), .unsigned(2)])?.description == "notify:mail")
    #expect(counter.closed(sender: Self.server, arguments: [.unsigned(41), .unsigned(2)]) == nil, "closed once")
  }

  @Test(arguments: [(UInt64(1), false), (2, true), (3, false), (4, false)])
  func onlyADismissalTakesOneOff(reason: UInt64, takesOff: Bool) {
    var counter = NotificationCounter()
    _ = counter.notify(caller: ":1.5", serial: 1, arguments: Self.notify("mail"))
    counter.answered(server: Self.server, caller: ":1.5", replySerial: 1, arguments: [.unsigned(9)])
    #expect((counter.closed(sender: Self.server, arguments: [.unsigned(9), .unsigned(reason)]) != nil) == takesOff)
  }

  @Test func anActionTakesOneOffAndTheCloseAfterItNothing() {
    var counter = NotificationCounter()
    _ = counter.notify(caller: ":1.5", serial: 1, arguments: Self.notify("chat"))
    counter.answered(server: Self.server, caller: ":1.5", replySerial: 1, arguments: [.unsigned(3)])
    #expect(
      counter.actionInvoked(sender: Self.server, arguments: [.unsigned(3), .string("default")])?.description
        == "notify:chat")
    #expect(counter.closed(sender: Self.server, arguments: [.unsigned(3), .unsigned(2)]) == nil)
  }

  @Test func answersAreMatchedToTheirCallerAndSerial() {
    var counter = NotificationCounter()
    _ = counter.notify(caller: ":1.5", serial: 1, arguments: Self.notify("a"))
    _ = counter.notify(caller: ":1.6", serial: 1, arguments: Self.notify("b"))
    counter.answered(server: Self.server, caller: ":1.6", replySerial: 1, arguments: [.unsigned(20)])
    counter.answered(server: Self.server, caller: ":1.5", replySerial: 1, arguments: [.unsigned(10)])
    counter.answered(server: Self.server, caller: ":1.7", replySerial: 1, arguments: [.unsigned(30)])  // no such call
    #expect(counter.closed(sender: Self.server, arguments: [.unsigned(10), .unsigned(2)])?.description == "notify:a")
    #expect(counter.closed(sender: Self.server, arguments: [.unsigned(20), .unsigned(2)])?.description == "notify:b")
    #expect(counter.closed(sender: Self.server, arguments: [.unsigned(30), .unsigned(2)]) == nil)
  }

  @Test func malformedMessagesCountNothing() {
    var counter = NotificationCounter()
    #expect(counter.notify(caller: ":1.5", serial: 1, arguments: [.string("mail")]) == nil)
    #expect(counter.closed(sender: Self.server, arguments: [.string("x"), .unsigned(2)]) == nil)
    #expect(counter.actionInvoked(sender: Self.server, arguments: []) == nil)
  }

  /// A notification of `app` shown as `id` by `server`.
  static func shown(_ app: String, id: UInt64, by server: String = server, on counter: inout NotificationCounter) {
    _ = counter.notify(caller: ":1.5", serial: id, arguments: Self.notify(app))
    counter.answered(server: server, caller: ":1.5", replySerial: id, arguments: [.unsigned(id)])
  }

  @Test func closesFromAnotherConnectionTakeNothingOffAndLeaveTheNotification() {
    var counter = NotificationCounter()
    Self.shown("mail", id: 1, on: &counter)
    for spoofer in [":1.99", "", "org.freedesktop.Notifications"] {
      #expect(counter.closed(sender: spoofer, arguments: [.unsigned(1), .unsigned(2)]) == nil)
      #expect(counter.actionInvoked(sender: spoofer, arguments: [.unsigned(1), .string("default")]) == nil)
    }
    #expect(
      counter.closed(sender: Self.server, arguments: [.unsigned(1), .unsigned(2)])?.description == "notify:mail",
      "the daemon's own close still counts")
  }

  @Test func aNewDaemonClosesOnlyWhatItShowed() {
    var counter = NotificationCounter()
    Self.shown("old", id: 1, by: ":1.3", on: &counter)
    Self.shown("new", id: 2, by: ":1.4", on: &counter)
    #expect(counter.closed(sender: ":1.4", arguments: [.unsigned(1), .unsigned(2)]) == nil)
    #expect(counter.closed(sender: ":1.4", arguments: [.unsigned(2), .unsigned(2)])?.description == "notify:new")
    // The name changing hands forgets what the old daemon showed.
    counter.reset()
    #expect(counter.remembered == (0, 0))
    #expect(counter.closed(sender: ":1.3", arguments: [.unsigned(1), .unsigned(2)]) == nil)
  }

  /// Calls never answered and notifications never closed are bounded; past the bound the
  /// oldest knowledge goes.
  @Test func whatIsRememberedIsBounded() {
    var counter = NotificationCounter()
    for serial in 0..<UInt64(3 * NotificationCounter.memoryLimit) {
      _ = counter.notify(caller: ":1.5", serial: serial, arguments: Self.notify("flood"))
    }
    #expect(counter.remembered.calls <= NotificationCounter.memoryLimit)
    for id in 0..<UInt64(3 * NotificationCounter.memoryLimit) { Self.shown("flood", id: id, on: &counter) }
    #expect(counter.remembered.notifications <= NotificationCounter.memoryLimit)
    #expect(counter.remembered.calls <= NotificationCounter.memoryLimit)
  }
}
