import Foundation
import Testing

/// An app on the session bus that sends LauncherEntry updates for ever new desktop ids: the
/// bridge keeps to its own limits (`[bridge] max_apps`, `[bridge] max_channels`), a socket
/// client keeps its room (`[limits] max_channels`), and the log gets a line per interval.
@Suite struct BusFloodTests {
  static let appsReason = "the LauncherEntry bridge: apps past [bridge] max_apps"
  static let channelsReason = "the LauncherEntry bridge: channels past [bridge] max_channels"

  /// Waits for the watcher's events up to `marker` (`channel count=N`); returns the channels
  /// of those before it.
  static func events(upTo marker: String, _ watcher: RawClient) throws -> Set<String> {
    var channels = Set<String>()
    while true {
      let event = try watcher.nextEvent()
      if event == marker { return channels }
      channels.insert(String(event.split(separator: " ")[0]))
    }
  }

  /// The `app:` channels `LIST` shows.
  static func appChannels(_ daemon: DaemonProcess) throws -> Int {
    try daemon.client().request("LIST").filter { $0.hasPrefix("STATE app:") }.count
  }

  @Test func aFloodOfIdsStaysInTheBridgesLimitsAndLeavesClientsTheirRoom() throws {
    let fixture = try BridgeFixture(
      config: """
        [bridge]
        max_apps = 8
        max_channels = 12
        [limits]
        max_channels = 3
        """)
    let started = Date()
    let watcher = try fixture.watcher("app:*")
    // One connection, 100 ids: 8 are tracked (and made channels), 92 refused by max_apps.
    let flooder = try BusPeer(bus: fixture.bus)
    #expect(try flooder.send("flood a 100") == "sent 100")
    try flooder.send("update / application://a.0.desktop count=x:2")  // after the flood, in order
    #expect(try Self.events(upTo: "app:a.0 count=2", watcher) == Set((0..<8).map { "app:a.\($0)" }))
    try fixture.leave(flooder)
    // Another, 100 more: its first 4 fill max_channels, the other 96 are refused by it, and
    // each is forgotten, so the table has room for the next.
    let second = try BusPeer(bus: fixture.bus)
    #expect(try second.send("flood b 100") == "sent 100")
    try second.send("update / application://b.0.desktop count=x:2")
    #expect(try Self.events(upTo: "app:b.0 count=2", watcher) == Set((0..<4).map { "app:b.\($0)" }))
    #expect(try Self.appChannels(fixture.daemon) == 12)
    // A socket client still has its own three channels, and the fourth is refused by its own limit.
    let client = try fixture.daemon.client()
    for channel in ["x", "y", "z"] { #expect(try client.request("INCR \(channel)").last == "OK") }
    #expect(
      try client.request("INCR w") == [
        "ERR full INCR would add channel 'w' to the 3 kept already ([limits] max_channels); clear one first"
      ])
    // The refusals' lines: the first of each reason at once, the rest counted and reported
    // once the interval is over. Every refusal is in a line or a count, and there is a line
    // per reason per interval.
    #expect(
      waitUntil(timeout: 40) {
        fixture.daemon.log.contains(Self.appsReason + ": ") && fixture.daemon.log.contains(Self.channelsReason + ": ")
      })
    let intervals = 1 + Int(Date().timeIntervalSince(started) / 10)
    let apps = Self.warnings(in: fixture.daemon.log, "([bridge] max_apps).", Self.appsReason)
    #expect(apps.refusals == 92)
    #expect(apps.lines >= 2 && apps.lines <= 2 * intervals, "\(apps.lines) lines in \(intervals) intervals")
    let channels = Self.warnings(in: fixture.daemon.log, "([bridge] max_channels), ignoring.", Self.channelsReason)
    #expect(channels.refusals == 96)
    #expect(channels.lines >= 2 && channels.lines <= 2 * intervals, "\(channels.lines) lines in \(intervals) intervals")
    #expect(!fixture.daemon.log.contains("<3>"))
  }

  /// The bridge's room is read from channel names, so channels restored from disk take the
  /// same room after a restart: the bridge gets no more, and clients lose none.
  @Test func theLimitsHoldAcrossARestart() throws {
    let folder = try TemporaryFolder()
    let bus = try SessionBus(folder: folder)
    let config = "[bridge]\nmax_channels = 4\n[limits]\nmax_channels = 2\n"
    var daemon = try DaemonProcess(folder: folder, config: config, environment: bus.environment)
    try bus.waitForOwner(of: BridgeFixture.dockName, pid: daemon.pid)
    let flooder = try BusPeer(bus: bus)
    #expect(try flooder.send("flood a 10") == "sent 10")
    #expect(waitUntil { (try? Self.appChannels(daemon)) == 4 })
    #expect(daemon.stop() == 0)
    daemon = try DaemonProcess(folder: folder, config: config, environment: bus.environment)
    try bus.waitForOwner(of: BridgeFixture.dockName, pid: daemon.pid)
    let watcher = try daemon.client()
    #expect(try watcher.request("WATCH app:*").last == "OK watching")
    #expect(try flooder.send("flood b 10") == "sent 10")
    try flooder.send("update / application://a.0.desktop count=x:5 count-visible=b:true")
    #expect(try watcher.nextEvent() == "app:a.0 count=5", "no b channel before it: the restored ones filled the room")
    #expect(try Self.appChannels(daemon) == 4)
    let client = try daemon.client()
    #expect(try client.request("INCR x").last == "OK")
    #expect(try client.request("INCR y").last == "OK")
    #expect(try client.request("INCR z").first?.hasPrefix("ERR full ") == true)
  }

  /// At the default limits: 20,000 ids from one connection. The bridge tracks `max_apps` (256)
  /// of them, the daemon's memory stays within a bound, and comes back near where it started
  /// once the sender left.
  @Test func aFloodAtTheDefaultLimitsKeepsMemoryBounded() throws {
    let fixture = try BridgeFixture(config: "[daemon]\nsync = never\n")
    let watcher = try fixture.watcher("app:*")
    let start = try memoryKiB(fixture.daemon.pid, "VmRSS")
    let flooder = try BusPeer(bus: fixture.bus)
    #expect(try flooder.send("flood f 20000") == "sent 20000")
    try flooder.send("update / application://f.0.desktop count=x:2")
    #expect(try Self.events(upTo: "app:f.0 count=2", watcher).count == 256)
    let during = try memoryKiB(fixture.daemon.pid, "VmHWM")
    try fixture.leave(flooder)
    #expect(try fixture.daemon.client().request("PING") == ["OK pong"])
    let after = try memoryKiB(fixture.daemon.pid, "VmRSS")
    print(
      "abuse: 20,000 desktop ids: RSS \(start) KiB at start, peak \(during) KiB, \(after) KiB after the sender left")
    #expect(during - start < 8 << 10, "peak \(during) KiB, started at \(start) KiB")
    #expect(after - start < 4 << 10, "\(after) KiB after the sender left, started at \(start) KiB")
    #expect(try Self.appChannels(fixture.daemon) == 256)
    #expect(waitUntil(timeout: 40) { fixture.daemon.log.contains(Self.appsReason + ": ") })
    #expect(Self.warnings(in: fixture.daemon.log, "([bridge] max_apps).", Self.appsReason).refusals == 20_000 - 256)
  }

  /// The warning lines of one reason in `log`: lines that end with `ending` (one refusal each,
  /// and the count a suffix carries) and the reason's own count lines.
  static func warnings(in log: String, _ ending: String, _ reason: String) -> (lines: Int, refusals: Int) {
    var lines = 0
    var refusals = 0
    for line in log.split(separator: "\n") where line.hasPrefix("<4>") {
      if line.hasPrefix("<4>" + reason + ": ") {
        lines += 1
        refusals += Int(line.dropFirst(reason.count + 5).prefix { $0.isNumber }) ?? 0
      } else if line.hasSuffix(ending) || line.contains(ending + " (") {
        lines += 1
        refusals += 1
        if let open = line.range(of: ending + " (") {
          refusals += Int(line[open.upperBound...].prefix { $0.isNumber }) ?? 0
        }
      }
    }
    return (lines, refusals)
  }
}
