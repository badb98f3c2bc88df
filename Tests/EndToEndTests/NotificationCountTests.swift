import Foundation
import Testing

/// `[notifications] count`: notify-send's calls to a notification daemon on a real private
/// bus count per app, beside that daemon.
@Suite struct NotificationCountTests {
  @Test func notificationsCountPerAppAndDismissalsTakeOneOff() throws {
    let folder = try TemporaryFolder()
    let bus = try SessionBus(folder: folder)
    let notificationDaemon = try BusPeer(bus: bus)
    #expect(try notificationDaemon.send("notifications") == "own 1")
    let daemon = try DaemonProcess(
      folder: folder, config: "[notifications]\ncount = yes\n", arguments: ["--log-level", "debug"],
      environment: bus.environment)
    // The monitor is in place once the bus has answered BecomeMonitor, which the log says;
    // a notification sent before then would not count.
    #expect(waitUntil { daemon.log.contains("Counting notifications as a monitor of the session bus.") })
    let watcher = try daemon.client()
    #expect(try watcher.request("WATCH notify:*") == ["STATE * dnd=0 left=0", "OK watching"])
    func send(_ arguments: [String]) throws {
      let result = try run("notify-send", arguments, environment: bus.environment)
      #expect(result.status == 0, "\(result.stderr)")
      _ = try notificationDaemon.nextLine()
    }
    try send(["--app-name=Firefox", "one"])
    #expect(try watcher.nextEvent() == "notify:Firefox count=1")
    try send(["--app-name=x", "--hint=string:desktop-entry:org.gnome.Geary", "mail"])
    #expect(try watcher.nextEvent() == "notify:org.gnome.Geary count=1")
    try send(["--app-name=Firefox", "two"])
    #expect(try watcher.nextEvent() == "notify:Firefox count=2")
    try send(["--app-name=Firefox", "--replace-id=3", "two, again"])
    try notificationDaemon.send("close 1 1")  // expired: still unread
    try notificationDaemon.send("close 1 2")  // already closed: nothing
    try notificationDaemon.send("close 3 2")  // dismissed
    #expect(try watcher.nextEvent() == "notify:Firefox count=1", "the replacement did not count, nor the expiry")
    try notificationDaemon.send("action 2 default")
    #expect(try watcher.nextEvent() == "notify:org.gnome.Geary count=0")
    try notificationDaemon.send("close 2 2")  // after the action: nothing more
    try send(["--app-name=Firefox", "three"])
    #expect(try watcher.nextEvent() == "notify:Firefox count=2")
  }

  /// A daemon counting notifications on a private bus, with a watcher of `notify:*`.
  private struct Counting {
    let folder: TemporaryFolder
    let bus: SessionBus
    let daemon: DaemonProcess
    let watcher: RawClient

    init() throws {
      folder = try TemporaryFolder()
      bus = try SessionBus(folder: folder)
      daemon = try DaemonProcess(
        folder: folder, config: "[notifications]\ncount = yes\n", arguments: ["--log-level", "debug"],
        environment: bus.environment)
      let monitoring = daemon
      #expect(waitUntil { monitoring.log.contains("Counting notifications as a monitor of the session bus.") })
      watcher = try daemon.client()
      #expect(try watcher.request("WATCH notify:*") == ["STATE * dnd=0 left=0", "OK watching"])
    }

    /// Sends a notification of `app` with notify-send; `server` shows it.
    func send(_ app: String, shownBy server: BusPeer) throws {
      let result = try run("notify-send", ["--app-name=\(app)", "hello"], environment: bus.environment)
      #expect(result.status == 0, "\(result.stderr)")
      _ = try server.nextLine()
    }
  }

  @Test func closesFromAPeerThatIsNotTheNotificationDaemonTakeNothingOff() throws {
    let counting = try Counting()
    let server = try BusPeer(bus: counting.bus)
    #expect(try server.send("notifications") == "own 1")
    for expected in 1...3 {
      try counting.send("victim", shownBy: server)
      #expect(try counting.watcher.nextEvent() == "notify:victim count=\(expected)")
    }
    let spoofer = try BusPeer(bus: counting.bus)
    for id in 1...50 { #expect(try spoofer.send("close \(id) 2") == "sent") }
    #expect(try spoofer.send("action 1 default") == "sent")
    #expect(try spoofer.send("ping") == "pong")  // the bus has them, before the close below
    try server.send("close 2 2")
    #expect(try counting.watcher.nextEvent() == "notify:victim count=2", "only the daemon's own close took one off")
    #expect(try count("notify:victim", counting.daemon) == 2)
  }

  @Test func aNewOwnerOfTheNameIsFollowed() throws {
    let counting = try Counting()
    let first = try BusPeer(bus: counting.bus)
    #expect(try first.send("notifications") == "own 1")
    try counting.send("chat", shownBy: first)  // id 1, by the first daemon
    #expect(try counting.watcher.nextEvent() == "notify:chat count=1")
    #expect(try first.send("release org.freedesktop.Notifications") == "released 1")
    let second = try BusPeer(bus: counting.bus)
    #expect(try second.send("notifications") == "own 1")
    // The first daemon is not the name's owner any more: its close takes nothing off.
    #expect(try first.send("close 1 2") == "sent")
    #expect(try first.send("ping") == "pong")
    try counting.send("chat", shownBy: second)  // id 1 again, by the second daemon
    #expect(
      try counting.watcher.nextEvent() == "notify:chat count=2",
      "the first daemon's close came before and counted nothing")
    try second.send("close 1 2")
    #expect(try counting.watcher.nextEvent() == "notify:chat count=1", "the new owner's close counts")
    #expect(counting.daemon.log.contains("The notification daemon's name changed hands"))
  }

  @Test func withoutTheSettingNothingIsCounted() throws {
    let fixture = try BridgeFixture()
    let notificationDaemon = try BusPeer(bus: fixture.bus)
    #expect(try notificationDaemon.send("notifications") == "own 1")
    #expect(try run("notify-send", ["--app-name=Firefox", "one"], environment: fixture.bus.environment).status == 0)
    #expect(try notificationDaemon.nextLine() == "notified 1 Firefox")
    #expect(try fixture.daemon.client().request("LIST") == ["OK"])
    #expect(!fixture.daemon.log.contains("counting notifications"))
  }
}
