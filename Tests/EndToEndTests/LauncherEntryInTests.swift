import Foundation
import Testing

/// Apps' LauncherEntry signals on a real private session bus become `app:` channels.
@Suite struct LauncherEntryInTests {
  @Test(arguments: ["/", "/com/canonical/unity/launcherentry/1234", "/org/telegram/desktop/badge"])
  func anUpdateFromGdbusIsACountInBadgectlWatch(path: String) throws {
    let fixture = try BridgeFixture()
    let watch = try WatchProcess(
      ["app:org.telegram.desktop", "--format", "plain", "--no-motion", "--template", "{channel} {count}"],
      socket: fixture.daemon.socket)
    #expect(try watch.readLine() == "", "a channel at 0 shows nothing")
    try fixture.bus.emitUpdate(
      uri: "application://org.telegram.desktop.desktop", properties: "{'count': <int64 5>, 'count-visible': <true>}",
      path: path)
    #expect(try watch.readLine() == "app:org.telegram.desktop 5")
    _ = watch.stop()
  }

  @Test func partialUpdatesMergeAndCountVisibleHidesAndRestores() throws {
    let fixture = try BridgeFixture()
    let watcher = try fixture.watcher("app:chat")
    let app = try BusPeer(bus: fixture.bus)
    try app.send("update /chat application://chat.desktop count=x:7")  // not visible: reads 0
    try app.send("update /chat application://chat.desktop count-visible=b:true")
    #expect(try watcher.nextEvent() == "app:chat count=7")
    try app.send("update /chat application://chat.desktop progress=d:0.5 progress-visible=b:true")
    try app.send("update /chat application://chat.desktop count-visible=b:false")
    #expect(try watcher.nextEvent() == "app:chat count=0", "progress alone changed nothing")
    try app.send("update /chat application://chat.desktop count-visible=b:true")
    #expect(try watcher.nextEvent() == "app:chat count=7", "the count was remembered")
    try app.send("update /chat application://chat.desktop count=x:2")
    #expect(try watcher.nextEvent() == "app:chat count=2", "still visible")
  }

  @Test func everyIntegerTypeCountsClampedAndOtherTypesAreSkipped() throws {
    let fixture = try BridgeFixture()
    let watcher = try fixture.watcher("app:mail")
    let app = try BusPeer(bus: fixture.bus)
    try app.send("update / application://mail.desktop count-visible=b:true count=i:3")
    #expect(try watcher.nextEvent() == "app:mail count=3")
    try app.send("update / application://mail.desktop count=u:4")
    #expect(try watcher.nextEvent() == "app:mail count=4")
    try app.send("update / application://mail.desktop count=t:99999999999")
    #expect(try watcher.nextEvent() == "app:mail count=2147483647")
    try app.send("update / application://mail.desktop count=s:9")  // skipped
    try app.send("update / application://mail.desktop count=x:-5")
    #expect(try watcher.nextEvent() == "app:mail count=0")
    try app.send("update / application://mail.desktop count=y:6")
    #expect(try watcher.nextEvent() == "app:mail count=6")
    #expect(fixture.daemon.log.contains("LauncherEntry Update for 'app:mail': ignored count (string)."))
  }

  @Test func aWrongSignatureIsIgnoredWithADebugLine() throws {
    let fixture = try BridgeFixture()
    let watcher = try fixture.watcher("app:*")
    let app = try BusPeer(bus: fixture.bus)
    try app.send("signal / s application://wrong.desktop")
    try app.send("update / application://right.desktop count=x:1 count-visible=b:true")
    #expect(try watcher.nextEvent() == "app:right count=1", "nothing came of the wrong one before it")
    #expect(
      fixture.daemon.log.contains(
        "Ignored a LauncherEntry Update from \(app.uniqueName) with signature 's', expected 'sa{sv}'."))
  }

  @Test func urgentStartsAPulseWindowWithoutAChange() throws {
    let fixture = try BridgeFixture(config: "[daemon]\npulse_ms = 200\n")
    let watcher = try fixture.watcher("app:chat")
    let app = try BusPeer(bus: fixture.bus)
    try app.send("update / application://chat.desktop count=x:2 count-visible=b:true")
    let increase = try #require(try watcher.readLine())
    #expect(field(increase, "count") == "2")
    let ended = try #require(try watcher.readLine(timeout: 5))
    #expect(field(ended, "pulse") == "0")
    try app.send("update / application://chat.desktop urgent=b:true")
    let urgent = try #require(try watcher.readLine())
    #expect(field(urgent, "count") == "2")
    #expect(Int(field(urgent, "pulse") ?? "") ?? 0 > 0)
    #expect(field(urgent, "seq") == field(increase, "seq"), "a pulse is not a change")
  }

  @Test func anAppLeavingKeepsItsCount() throws {
    let fixture = try BridgeFixture()
    let watcher = try fixture.watcher("app:*")
    let app = try BusPeer(bus: fixture.bus)
    try app.send("update / application://gone.desktop count=x:3 count-visible=b:true")
    #expect(try watcher.nextEvent() == "app:gone count=3")
    try fixture.leave(app)
    let other = try BusPeer(bus: fixture.bus)
    try other.send("update / application://other.desktop count=x:1 count-visible=b:true")
    #expect(try watcher.nextEvent() == "app:other count=1", "app:gone kept its count")
    #expect(try fixture.daemon.client().request("GET app:gone")[0].hasPrefix("STATE app:gone count=3 "))
  }

  @Test func clearOnExitClearsTheChannelsOfAnAppThatLeft() throws {
    let fixture = try BridgeFixture(config: "[bridge]\nclear_on_exit = yes\n")
    let watcher = try fixture.watcher("app:*")
    let app = try BusPeer(bus: fixture.bus)
    try app.send("update / application://gone.desktop count=x:3 count-visible=b:true")
    #expect(try watcher.nextEvent() == "app:gone count=3")
    try fixture.leave(app)
    #expect(try watcher.nextEvent() == "app:gone count=0")
  }

  @Test func ignoredAppsAreDropped() throws {
    let fixture = try BridgeFixture(config: "[bridge]\nignore = org.telegram.* spam\n")
    let watcher = try fixture.watcher("app:*")
    let app = try BusPeer(bus: fixture.bus)
    try app.send("update / application://org.telegram.desktop.desktop count=x:3 count-visible=b:true")
    try app.send("update / application://spam.desktop count=x:3 count-visible=b:true")
    try app.send("update / application://kept.desktop count=x:1 count-visible=b:true")
    #expect(try watcher.nextEvent() == "app:kept count=1", "the ignored apps came before and made nothing")
    let listed = try fixture.daemon.client().request("LIST")
    #expect(
      listed.map { $0.split(separator: " ").prefix(3).joined(separator: " ") } == ["STATE app:kept count=1", "OK"])
  }

  @Test func aDisabledBridgeStaysOffTheBus() throws {
    let fixture = try BridgeFixture(config: "[bridge]\nenabled = no\n", waitForName: false)
    #expect(try badgectl(["incr", "mail"], socket: fixture.daemon.socket).status == 0)
    #expect(try fixture.bus.ownerPID(of: BridgeFixture.dockName) == nil)
    #expect(!fixture.daemon.log.contains("session bus"))
  }

  @Test func theBridgesChannelLimitRefusesNewAppsAndForgetsThem() throws {
    let fixture = try BridgeFixture(
      config: "[bridge]\nmax_channels = 1\n[limits]\nmax_channels = 1\n[daemon]\npulse_ms = 100\n")
    let watcher = try fixture.watcher("app:*")
    let app = try BusPeer(bus: fixture.bus)
    try app.send("update / application://kept.desktop count=x:1 count-visible=b:true")
    #expect(try watcher.nextEvent() == "app:kept count=1")
    #expect(try field(#require(try watcher.readLine()), "pulse") == "0", "its pulse window ended")
    try app.send("update / application://chat.desktop count=x:2 count-visible=b:true")
    try app.send("update / application://chat.desktop count=x:3")
    // The bridge handles one app's signals in order: once this pulse shows, both were handled.
    try app.send("update / application://kept.desktop urgent=b:true")
    let pulse = try #require(try watcher.readLine())
    #expect(pulse.hasPrefix("EVENT app:kept count=1 ") && field(pulse, "pulse") != "0")
    let refusals = fixture.daemon.log.split(separator: "\n").filter { $0.contains("'app:chat'") }
    #expect(
      refusals == [
        "<4>Failed to set 'app:chat' to 2 (LauncherEntry from \(app.uniqueName)): 1 channels are kept already "
          + "([bridge] max_channels), ignoring."
      ])
    // The app's channels are not the clients': a client still has its own channel.
    #expect(try fixture.daemon.client().request("INCR mail").last == "OK")
    try badgectl(["clear", "app:kept"], socket: fixture.daemon.socket)  // a channel at 0 is not kept
    // The refused app was forgotten, `count-visible` with it: a count alone shows nothing.
    try app.send("update / application://chat.desktop count=x:4")
    try app.send("update / application://chat.desktop count-visible=b:true")
    // Before it: the clear of app:kept, and the end of its pulse unless the clear ended it.
    var event = try watcher.nextEvent()
    while event.hasPrefix("app:kept ") { event = try watcher.nextEvent() }
    #expect(event == "app:chat count=4")
  }

  @Test func aReloadTurnsTheBridgeOffAndOnAgain() throws {
    let fixture = try BridgeFixture(config: "")
    _ = try fixture.folder.write("badged.conf", "[bridge]\nenabled = no\n")
    #expect(try fixture.daemon.client().request("RELOAD") == ["OK reloaded"])
    try fixture.bus.waitForOwner(of: BridgeFixture.dockName, pid: nil)
    #expect(fixture.daemon.log.contains("The LauncherEntry bridge is off ([bridge] enabled = no)."))
    _ = try fixture.folder.write("badged.conf", "[bridge]\nenabled = yes\n")
    #expect(try fixture.daemon.client().request("RELOAD") == ["OK reloaded"])
    try fixture.bus.waitForOwner(of: BridgeFixture.dockName, pid: fixture.daemon.pid)
    let watcher = try fixture.watcher("app:back")
    let app = try BusPeer(bus: fixture.bus)
    try app.send("update / application://back.desktop count=x:1 count-visible=b:true")
    #expect(try watcher.nextEvent() == "app:back count=1")
  }
}
