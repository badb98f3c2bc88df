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
