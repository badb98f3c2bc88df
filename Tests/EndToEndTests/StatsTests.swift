import BadgePersistence
import Foundation
import Testing

@testable import BadgeCore

/// `badgectl stats` against the real daemon: the figures are exactly the changes made, and stay
/// exactly so through a crash (journal replay), a clean restart (a snapshot) and compactions.
@Suite struct StatsTests {
  /// The daemons here run in UTC, so the test knows their day.
  static let utc = ["TZ": "UTC"]

  static func today(offsetHours: Int = 0) -> Int {
    Int((Date().timeIntervalSince1970 + Double(offsetHours * 3600)) / 86400)
  }

  /// The JSON line `stats --period week --format json` prints for a channel whose only changes
  /// were today.
  static func weekJSON(_ channel: String, arrivals: Int, clears: Int, peak: Int, today: Int) -> String {
    func figures(_ a: Int, _ c: Int, _ p: Int) -> String { "\"arrivals\":\(a),\"clears\":\(c),\"peak\":\(p)" }
    let days = (today - 6...today).map { day in
      "{\"date\":\"\(CivilDate(dayNumber: day))\","
        + (day == today ? figures(arrivals, clears, peak) : figures(0, 0, 0)) + "}"
    }
    return "{\"channel\":\"\(channel)\",\"period\":\"week\",\"from\":\"\(CivilDate(dayNumber: today - 6))\","
      + "\"to\":\"\(CivilDate(dayNumber: today))\"," + figures(arrivals, clears, peak)
      + ",\"days\":[" + days.joined(separator: ",") + "]}"
  }

  /// Every kind of change, and the figures they make.
  static let changes: [[String]] = [
    ["incr", "mail", "5"], ["decr", "mail", "2"], ["set", "mail", "9"],  // +5, +6: peak 9
    ["clear", "mail"], ["clear", "mail"],  // one clear; the second changes nothing
    ["incr", "mail"], ["set", "ci", "4"], ["clear", "--all"],  // mail 1 → 0 and ci 4 → 0: clears
    ["incr", "news", "3"], ["decr", "news", "10"],  // a DECR past 0 is a clear too
    ["mute", "mail"], ["configure", "ci", "style=dot"],  // settings: no history
  ]

  static func expected(today: Int) -> String {
    [
      weekJSON("ci", arrivals: 4, clears: 1, peak: 4, today: today),
      weekJSON("mail", arrivals: 12, clears: 2, peak: 9, today: today),
      weekJSON("news", arrivals: 3, clears: 1, peak: 3, today: today),
    ].map { $0 + "\n" }.joined()
  }

  static func week(_ daemon: DaemonProcess) throws -> String {
    let result = try badgectl(["stats", "--period", "week", "--format", "json"], socket: daemon.socket)
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout
  }

  @Test func jsonIsExactlyTheChangesMadeThroughACrashARestartAndCompaction() throws {
    let folder = try TemporaryFolder()
    var daemon = try DaemonProcess(folder: folder, environment: Self.utc)
    for change in Self.changes {
      let result = try badgectl(change, socket: daemon.socket)
      #expect(result.status == 0, "\(change): \(result.stderr)")
    }
    let today = Self.today()
    #expect(try Self.week(daemon) == Self.expected(today: today))

    // A crash: the history comes back from the journal's day records alone.
    daemon.crash()
    let journal = try Data(contentsOf: URL(fileURLWithPath: daemon.stateFile("journal")))
    #expect(journal.count > 8, "the changes are in the journal, not yet in a snapshot")
    daemon = try DaemonProcess(folder: folder, environment: Self.utc)
    #expect(try Self.week(daemon) == Self.expected(today: today))

    // A clean stop compacts: the next start reads the history from the snapshot alone.
    #expect(daemon.stop() == 0)
    let compacted = try Data(contentsOf: URL(fileURLWithPath: daemon.stateFile("journal")))
    #expect(compacted.count == 8, "an empty journal: just its header")
    daemon = try DaemonProcess(folder: folder, environment: Self.utc)
    #expect(try Self.week(daemon) == Self.expected(today: today))

    // And history keeps counting on top of what was loaded.
    try badgectl(["incr", "mail", "2"], socket: daemon.socket)
    let day = try badgectl(["stats", "mail", "--format", "json"], socket: daemon.socket).stdout
    #expect(
      day.contains("\"arrivals\":14,\"clears\":2,\"peak\":9,\"days\":[{\"date\":\"\(CivilDate(dayNumber: today))\""),
      "\(day)")
  }

  /// Journals written before a change's day rode in its channel record have a day record,
  /// then the channel record: they still load, history included, and a day record whose
  /// channel record was cut off by a crash is still dropped with it.
  @Test func aJournalOfSeparateDayRecordsStillLoadsItsHistory() throws {
    let folder = try TemporaryFolder()
    let state = folder.file("state")
    try FileManager.default.createDirectory(
      atPath: state, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    let today = Self.today()
    func day(_ arrivals: Int, _ clears: Int, _ peak: Int, end: Int) -> HistoryDay {
      HistoryDay(day: today, figures: DayFigures(arrivals: arrivals, clears: clears, peak: peak), endCount: end)
    }
    let mail = try #require(ChannelName("mail"))
    let ci = try #require(ChannelName("ci"))
    var journal = RecordFile.header(magic: RecordFile.journalMagic)
    for (seq, name, count, entry) in [
      (UInt64(1), mail, 9, day(9, 0, 9, end: 9)), (2, ci, 4, day(4, 0, 4, end: 4)), (3, mail, 2, day(9, 0, 9, end: 2)),
    ] {
      RecordCodec.append(.day(DayRecord(name: name, entry: entry, seq: seq)), to: &journal)
      RecordCodec.append(
        .channel(ChannelRecord(name: name, count: count, override: SettingsOverride(), seq: seq)), to: &journal)
    }
    // A crash between the last day record and its channel record.
    RecordCodec.append(.day(DayRecord(name: ci, entry: day(4, 1, 4, end: 0), seq: 4)), to: &journal)
    try Data(journal).write(to: URL(fileURLWithPath: state + "/journal"))

    let daemon = try DaemonProcess(folder: folder, environment: Self.utc)
    #expect(
      try Self.week(daemon)
        == [
          Self.weekJSON("ci", arrivals: 4, clears: 0, peak: 4, today: today),
          Self.weekJSON("mail", arrivals: 9, clears: 0, peak: 9, today: today),
        ].map { $0 + "\n" }.joined())
    let client = try daemon.client()
    #expect(try field(client.request("GET ci")[0], "count") == "4")
    #expect(try field(client.request("INCR mail")[0], "seq") == "4", "seq goes on from the last channel record")
  }

  @Test func patternsSelectChannelsAndAnExactNameShowsEvenWithoutHistory() throws {
    let daemon = try DaemonProcess(environment: Self.utc)
    for change in [["incr", "app:a", "2"], ["incr", "app:b"], ["incr", "mail"]] {
      try badgectl(change, socket: daemon.socket)
    }
    let today = CivilDate(dayNumber: Self.today())
    let plain = try badgectl(["stats", "app:*", "never", "--format", "plain"], socket: daemon.socket)
    #expect(
      plain.stdout == """
        app:a: 2 arrivals, 0 clears, peak 2 (\(today))
        app:b: 1 arrivals, 0 clears, peak 1 (\(today))
        never: 0 arrivals, 0 clears, peak 0 (\(today))

        """)
    // Not a terminal: plain by default, and --format term shows the end values at once.
    #expect(try badgectl(["stats"], socket: daemon.socket).stdout.split(separator: "\n").count == 3)
    let term = try badgectl(
      ["stats", "mail", "--format", "term"], socket: daemon.socket, environment: ["COLUMNS": "40"])
    #expect(
      term.stdout == """
        day  \(today)
                            arrivals clears peak
        mail  █████████████        1      0    1

        """)
  }

  @Test func theDayIsTheDaemonsLocalDay() throws {
    // POSIX zone strings need no zone files: 14 hours ahead of UTC, and 12 behind.
    for (zone, hours) in [("ABC-14", 14), ("XYZ+12", -12)] {
      let daemon = try DaemonProcess(environment: ["TZ": zone])
      try badgectl(["incr", "mail"], socket: daemon.socket)
      let line = try badgectl(["stats", "mail", "--format", "plain"], socket: daemon.socket).stdout
      #expect(
        line == "mail: 1 arrivals, 0 clears, peak 1 (\(CivilDate(dayNumber: Self.today(offsetHours: hours))))\n",
        "\(zone)")
    }
  }

  @Test func inATerminalEveryNumberAndBarCountsUpFromZeroToItsValue() throws {
    let daemon = try DaemonProcess(environment: Self.utc)
    try badgectl(["incr", "mail", "12345"], socket: daemon.socket)
    try badgectl(["incr", "ci", "3"], socket: daemon.socket)
    var environment = Child.environment(["BADGED_SOCKET": daemon.socket, "COLUMNS": "60", "TERM": "xterm"])
    environment["NO_MOTION"] = nil
    let command = "\(Binaries.badgectl.path) stats --period week"
    // `script` gives badgectl a terminal of its own and copies what it writes.
    let run = try capture(["script", "-qfec", command, "/dev/null"], environment: environment)
    #expect(run.status == 0, "\(run.stderr)")
    let out = run.stdout.replacingOccurrences(of: "\r\n", with: "\n")
    #expect(out.hasPrefix("\u{1B}[?25l"), "the cursor hides while numbers move")
    #expect(out.hasSuffix("\u{1B}[?25h"), "and comes back at the end")
    // Frames after the first begin by moving up over the panel (6 lines) to redraw it.
    let frames = out.dropFirst(6).dropLast(6).components(separatedBy: "\u{1B}[6A\r")
    #expect(frames.count >= 2, "\(out.debugDescription)")
    let first = frames[0].components(separatedBy: "\u{1B}[K\n")
    let last = try #require(frames.last).components(separatedBy: "\u{1B}[K\n")
    // Fields as wide as the end values need (8, 6, 6), the bar the rest of 60 columns (31).
    #expect(first[2] == "ci    " + String(repeating: " ", count: 31) + "        0      0      0", "\(first)")
    #expect(first[4] == "mail  " + String(repeating: " ", count: 31) + "        0      0      0", "\(first)")
    #expect(last[2] == "ci    " + "▏" + String(repeating: " ", count: 30) + "        3      0      3", "\(last)")
    #expect(last[4] == "mail  " + String(repeating: "█", count: 31) + "   12,345      0 12,345", "\(last)")
    // Every frame has the same width on every line: nothing jitters.
    for frame in frames {
      #expect(frame.components(separatedBy: "\u{1B}[K\n").map(\.count) == last.map(\.count))
    }
    // NO_MOTION: the end values at once, one frame.
    environment["NO_MOTION"] = "1"
    let still = try capture(["script", "-qfec", command, "/dev/null"], environment: environment).stdout
    #expect(!still.contains("\u{1B}"), "\(still.debugDescription)")
    #expect(still.contains("12,345      0 12,345"))
  }

  @Test(arguments: [
    (
      ["stats", "--period", "fortnight"],
      "Invalid value 'fortnight' for '--period <period>'; expected one of day, week, month, year"
    ),
    (["stats", "--period"], "Missing value for '--period <period>'"),
    (["stats", "--format", "xml"], "Invalid value 'xml' for '--format <format>'; expected one of term, json, plain"),
    (["stats", "--format=waybar"], "Invalid value 'waybar' for '--format <format>'"),
    (["stats", "--no-motion=1"], "The flag '--no-motion' takes no value"),
    (["stats", "--perod", "week"], "Did you mean '--period'?"),
    (["stats", "m@il"], "Invalid channel or pattern 'm@il'"),
    (["stats", "--fps", "30"], "Unknown option '--fps'"),
  ])
  func badArgumentsAreUsageErrors(arguments: [String], message: String) throws {
    let result = try badgectl(arguments, socket: "/nonexistent/socket")
    #expect(result.status == 64, "\(arguments): \(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(result.stderr.contains("\nUsage: badgectl stats"))
    #expect(result.stdout.isEmpty)
  }

  @Test func anUnreachableDaemonExits69() throws {
    let result = try badgectl(["stats"], socket: "/nonexistent/socket")
    #expect(result.status == 69)
    #expect(result.stderr.contains("Cannot reach badged at '/nonexistent/socket'"))
  }
}
