import Testing

@testable import BadgeCtl

/// `dnd on [<duration> | until <HH:MM>] | off | toggle | status`
@Suite struct DNDCommandTests {
  @Test(
    arguments: [
      (["dnd", "status"], DNDCommand.Action.status, ["DND"]),
      (["dnd", "off"], .off, ["DND", "off"]),
      (["dnd", "toggle"], .toggle, ["DND", "toggle"]),
      (["dnd", "on"], .on(nil), ["DND", "on"]),
      (["dnd", "on", "90s"], .on(.after(milliseconds: 90_000)), ["DND", "on", "90000ms"]),
      (["dnd", "on", "2h"], .on(.after(milliseconds: 7_200_000)), ["DND", "on", "7200000ms"]),
      (["dnd", "on", "250ms"], .on(.after(milliseconds: 250)), ["DND", "on", "250ms"]),
      (["dnd", "on", "720h"], .on(.after(milliseconds: 2_592_000_000)), ["DND", "on", "2592000000ms"]),
    ] as [([String], DNDCommand.Action, [String])])
  func actions(words commandLine: [String], action: DNDCommand.Action, line: [String]) {
    let dnd = parse(commandLine, as: DNDCommand.self)
    #expect(dnd?.action == action)
    #expect(words(dnd) == line)
    #expect(dnd?.format == .plain)
  }

  @Test func untilATimeOfDay() throws {
    let evening = parse(["dnd", "on", "until", "18:00", "--format", "json"], as: DNDCommand.self)
    #expect(evening?.action == .on(.clock(.init(hour: 18, minute: 0))) && evening?.format == .json)
    #expect(
      parse(["dnd", "on", "until", "7:05"], as: DNDCommand.self)?.action == .on(.clock(.init(hour: 7, minute: 5))))
    #expect(
      parse(["dnd", "on", "until", "0:00"], as: DNDCommand.self)?.action == .on(.clock(.init(hour: 0, minute: 0))))
    // The request counts from the moment it is made: at most a day ahead, at least 1 ms.
    let request = try #require(words(parse(["dnd", "on", "until", "23:59"], as: DNDCommand.self)))
    #expect(request.count == 3 && request[0] == "DND" && request[1] == "on" && request[2].hasSuffix("ms"))
    let ms = try #require(Int(request[2].dropLast(2)))
    #expect((1...86_400_000).contains(ms), "\(ms)")
  }

  @Test(arguments: [
    (["dnd"], "Missing expected argument 'on|off|toggle|status'"),
    (["dnd", "maybe"], "Unknown argument 'maybe'; expected on, off, toggle or status"),
    (["dnd", "ON"], "Unknown argument 'ON'; expected on, off, toggle or status"),
    (["dnd", "on", "30"], "Invalid duration '30'; expected a whole number and a unit: 90s, 30m, 2h (or until HH:MM)"),
    (["dnd", "on", "0s"], "Invalid duration '0s'; expected a whole number and a unit: 90s, 30m, 2h (or until HH:MM)"),
    (["dnd", "on", "1d"], "Invalid duration '1d'; expected a whole number and a unit: 90s, 30m, 2h (or until HH:MM)"),
    (["dnd", "on", "721h"], "The duration '721h' is over the longest, 30 days"),
    (["dnd", "on", "2592000001ms"], "The duration '2592000001ms' is over the longest, 30 days"),
    (["dnd", "on", "until"], "Expected 'until <HH:MM>', e.g. until 18:00"),
    (["dnd", "on", "until", "24:00"], "Invalid time '24:00'; expected HH:MM from 00:00 to 23:59"),
    (["dnd", "on", "until", "7:5"], "Invalid time '7:5'; expected HH:MM from 00:00 to 23:59"),
    (["dnd", "on", "until", "18:60"], "Invalid time '18:60'; expected HH:MM from 00:00 to 23:59"),
    (["dnd", "on", "until", "1800"], "Invalid time '1800'; expected HH:MM from 00:00 to 23:59"),
    (["dnd", "on", "until", "18:00", "x"], "Unexpected argument 'x'"),
    (["dnd", "on", "2h", "x"], "Unexpected argument 'x'"),
    (["dnd", "off", "now"], "Unexpected argument 'now'"),
    (["dnd", "status", "x"], "Unexpected argument 'x'"),
    (["dnd", "toggle", "--format", "xml"], "Invalid value 'xml' for '--format <format>'; expected one of plain, json"),
  ])
  func badFormsAreRefused(words: [String], message: String) {
    #expect(refusal(words) == usageError(message, of: "dnd"))
  }
}
