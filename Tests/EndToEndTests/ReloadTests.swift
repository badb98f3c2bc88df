import Foundation
import Testing

/// Reloading the config: SIGHUP, `RELOAD` and `badgectl reload` are one reload.
@Suite struct ReloadTests {
  static let before = """
    [daemon]
    max_label = 99
    [channel ci]
    style = count
    """
  static let after = """
    [daemon]
    max_label = 9
    [channel ci]
    style = dot
    """

  /// The ways to ask for a reload; each returns what the asker saw (a reply, or nothing).
  enum Trigger: String, CaseIterable, CustomTestStringConvertible {
    case sighup, protocolCommand, ctlCommand
    var testDescription: String { rawValue }

    func reload(_ daemon: DaemonProcess) throws -> [String] {
      switch self {
      case .sighup:
        kill(daemon.pid, SIGHUP)
        return []
      case .protocolCommand:
        return try daemon.client().request("RELOAD")
      case .ctlCommand:
        let result = try EndToEndTests.badgectl(["reload"], socket: daemon.socket)
        return ["status \(result.status)", result.stdout, result.stderr]
      }
    }
  }

  @Test(arguments: Trigger.allCases)
  func aValidConfigAppliesToEveryChannelAndWatchersSeeTheChanges(trigger: Trigger) throws {
    let daemon = try DaemonProcess(config: Self.before)
    let client = try daemon.client()
    _ = try client.request("SET mail 12")
    _ = try client.request("SET ci 3")
    _ = try client.request("SET news 5")
    let watcher = try daemon.client()
    _ = try watcher.request("WATCH")
    _ = try daemon.folder.write("badged.conf", Self.after)

    let reply = try trigger.reload(daemon)
    switch trigger {
    case .sighup: #expect(reply.isEmpty)
    case .protocolCommand: #expect(reply == ["OK reloaded"])
    case .ctlCommand: #expect(reply == ["status 0", "", ""])
    }

    // Labels or styles changed for mail (12 → 9+) and ci (dot); news (5) shows the same label.
    var events: [String: String] = [:]
    while events.count < 2 {
      let line = try #require(try watcher.readLine(timeout: 5))
      if line.hasPrefix("EVENT ") { events[String(line.split(separator: " ")[1])] = line }
    }
    #expect(field(events["mail"] ?? "", "label") == "9+")
    #expect(field(events["ci"] ?? "", "label") == "•" && field(events["ci"] ?? "", "dot") == "1")
    #expect(try field(client.request("GET news")[0], "label") == "5")
    #expect(try field(client.request("SET later 20")[0], "label") == "9+", "new channels follow it too")
    #expect(waitUntil(timeout: 5) { daemon.log.contains("Reloaded configuration from") })
  }

  @Test(arguments: Trigger.allCases)
  func aBrokenConfigIsRefusedWithFileLineReasonAndTheOldOneStays(trigger: Trigger) throws {
    let daemon = try DaemonProcess(config: Self.before)
    let client = try daemon.client()
    _ = try client.request("SET mail 120")
    _ = try daemon.folder.write("badged.conf", "[daemon]\nmax_label = 9\n[channel ci]\nstyle = square\n")
    let message = "badged.conf:4: Invalid value 'square' for style"

    let reply = try trigger.reload(daemon)
    switch trigger {
    case .sighup: #expect(reply.isEmpty)
    case .protocolCommand:
      #expect(reply.count == 1 && reply[0].hasPrefix("ERR failed ") && reply[0].contains(message), "\(reply)")
    case .ctlCommand:
      #expect(reply[0] == "status 1")
      #expect(reply[2].hasPrefix("Error: ") && reply[2].contains(message), "\(reply)")
    }

    #expect(waitUntil(timeout: 5) { daemon.log.contains(message) }, "\(daemon.log)")
    #expect(daemon.log.contains("keeping the old one"))
    // Still running, on the old config (max_label 99), max_label 9 of the broken file unused.
    #expect(try field(client.request("GET mail")[0], "label") == "99+")
    #expect(daemon.isRunning)
  }

  @Test func reloadTakesNoArguments() throws {
    let daemon = try DaemonProcess()
    let reply = try daemon.client().request("RELOAD now")
    #expect(reply.count == 1 && reply[0].hasPrefix("ERR bad-arguments "), "\(reply)")
    #expect(try badgectl(["reload", "now"], socket: daemon.socket).status == 64)
  }
}
