import Foundation
import Testing

/// `badgectl open` and `watch --open`: the app behind a channel is activated on a real private
/// session bus, or launched from its desktop file, and then the channel is cleared.
@Suite struct OpenCommandTests {
  @Test func aDBusActivatableAppIsActivatedThenTheChannelCleared() throws {
    let fixture = try BridgeFixture()
    let app = try BusPeer(bus: fixture.bus)
    #expect(try app.send("app org.example.Chat") == "own 1")
    try badgectl(["set", "app:org.example.Chat", "3"], socket: fixture.daemon.socket)
    let result = try badgectl(
      ["open", "app:org.example.Chat"], socket: fixture.daemon.socket, environment: fixture.bus.environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "app:org.example.Chat 0\n")
    #expect(try app.nextLine() == "activated org.example.Chat")
  }

  /// `open` clears what was shown when the click came: up to `--upto` (what `watch --open`
  /// showed), else up to the total it read before the app opened, so what arrives while the
  /// app starts stays.
  @Test func whatArrivesWhileTheAppStartsStays() throws {
    let fixture = try BridgeFixture()
    let socket = fixture.daemon.socket
    let app = try BusPeer(bus: fixture.bus)
    // The app gets a new message as it starts: one more, before it answers Activate.
    let arrives = [Binaries.badgectl.path, "--socket", socket, "incr", "app:org.example.Chat"]
    #expect(try app.send((["app", "org.example.Chat"] + arrives).joined(separator: " ")) == "own 1")
    try badgectl(["set", "app:org.example.Chat", "3"], socket: socket)  // total 3
    let read = try badgectl(["open", "app:org.example.Chat"], socket: socket, environment: fixture.bus.environment)
    #expect(read.status == 0, "\(read.stderr)")
    #expect(read.stdout == "app:org.example.Chat 1 pulsing\n", "the one that arrived while it started")
    #expect(try app.nextLine() == "activated org.example.Chat")
    // A watcher showed total 6; 2 more came after it, and the app's start brings one more.
    try badgectl(["incr", "app:org.example.Chat", "2"], socket: socket)  // count 3, total 6
    try badgectl(["incr", "app:org.example.Chat", "2"], socket: socket)  // count 5, total 8
    let shown = try badgectl(
      ["open", "app:org.example.Chat", "--upto", "6"], socket: socket, environment: fixture.bus.environment)
    #expect(shown.stdout == "app:org.example.Chat 3 pulsing\n", "the 2 after total 6 and the one that arrived")
  }

  @Test func otherwiseItsDesktopFileIsLaunched() throws {
    let fixture = try BridgeFixture()
    let launched = fixture.folder.file("launched")
    let applications = fixture.folder.file("data/applications")
    try FileManager.default.createDirectory(atPath: applications, withIntermediateDirectories: true)
    // Not on the bus: Activate fails and the desktop file is launched instead.
    _ = try fixture.folder.write(
      "data/applications/org.example.Tool.desktop",
      "[Desktop Entry]\nType=Application\nName=Tool\nExec=touch \(launched)\n")
    try badgectl(["set", "notify:org.example.Tool", "2"], socket: fixture.daemon.socket)
    let result = try badgectl(
      ["open", "notify:org.example.Tool"], socket: fixture.daemon.socket,
      environment: fixture.bus.environment.merging(["XDG_DATA_HOME": fixture.folder.file("data")]) { $1 })
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "notify:org.example.Tool 0\n")
    #expect(waitUntil { FileManager.default.fileExists(atPath: launched) })
  }

  @Test func anAppThatCannotBeOpenedKeepsItsCount() throws {
    let fixture = try BridgeFixture()
    try badgectl(["set", "app:org.example.Gone", "4"], socket: fixture.daemon.socket)
    let data = fixture.folder.file("empty")
    let result = try badgectl(
      ["open", "app:org.example.Gone"], socket: fixture.daemon.socket,
      environment: fixture.bus.environment.merging(["XDG_DATA_HOME": data, "XDG_DATA_DIRS": "/nonexistent"]) { $1 })
    #expect(result.status == 1)
    #expect(result.stdout == "")
    #expect(
      result.stderr == """
        Error: Cannot open the app of 'app:org.example.Gone': Activate on the session bus: The name org.example.Gone \
        was not provided by any .service files (org.freedesktop.DBus.Error.ServiceUnknown); no desktop file \
        org.example.Gone.desktop in \(data)/applications, /nonexistent/applications

        """)
    #expect(try currentCount("app:org.example.Gone", socket: fixture.daemon.socket) == 4)
  }

  @Test(arguments: ["mail", "app:", "ci:app:x"])
  func onlyAppAndNotifyChannelsHaveAnAppToOpen(_ channel: String) throws {
    let result = try badgectl(["open", channel], socket: "/nonexistent/badged.sock")
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("Error: Only app: and notify: channels have an app to open, not '\(channel)'\n"))
  }

  @Test func watchOpenMakesAClickOpenTheAppsAndClearOtherChannels() throws {
    let fixture = try BridgeFixture()
    let app = try BusPeer(bus: fixture.bus)
    #expect(try app.send("app org.example.Chat") == "own 1")
    try badgectl(["set", "app:org.example.Chat", "3"], socket: fixture.daemon.socket)
    try badgectl(["set", "mail", "2"], socket: fixture.daemon.socket)
    let watch = try WatchProcess(
      [
        "app:org.example.Chat", "mail", "--format", "plain", "--no-motion", "--template", "{channel}={count}", "--open",
      ],
      socket: fixture.daemon.socket, environment: fixture.bus.environment)
    #expect(try watch.readLine() == "app:org.example.Chat=3 mail=2")
    kill(watch.pid, SIGUSR1)
    #expect(try app.nextLine() == "activated org.example.Chat")
    _ = try watch.readLine { $0.isEmpty }  // both at 0: nothing shows
    #expect(try currentCount("app:org.example.Chat", socket: fixture.daemon.socket) == 0)
    #expect(try currentCount("mail", socket: fixture.daemon.socket) == 0)
    _ = watch.stop()
  }

  @Test func anI3blocksClickWithOpenOpensTheApp() throws {
    let fixture = try BridgeFixture()
    let app = try BusPeer(bus: fixture.bus)
    #expect(try app.send("app org.example.Chat") == "own 1")
    try badgectl(["set", "app:org.example.Chat", "3"], socket: fixture.daemon.socket)
    let watch = try WatchProcess(
      ["app:org.example.Chat", "--format", "i3blocks", "--open"], socket: fixture.daemon.socket,
      environment: fixture.bus.environment, clickInput: true)
    _ = try watch.readLine()
    try watch.writeInput("1\n")
    #expect(try app.nextLine() == "activated org.example.Chat")
    #expect(waitUntil { (try? currentCount("app:org.example.Chat", socket: fixture.daemon.socket)) == 0 })
    _ = watch.stop()
  }
}
