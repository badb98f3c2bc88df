import BadgeCore
import Foundation
import TestSupport
import Testing

/// docs/PROTOCOL.md's examples are one session; replaying it against the real daemon keeps the
/// document true to what badged answers.
@Suite struct ProtocolDocTests {
  /// One step of the documented session.
  enum Step: Equatable {
    /// `> line`: sent by the main client.
    case send(String)
    /// `>> line`: sent by a second client, whose reply is read and not checked.
    case sendOther(String)
    /// `< line`: the next line the main client receives.
    case receive(String)
  }

  /// The steps in every fenced block of the document, in order; blocks fenced as `text` are
  /// illustrations (such as a failure that needs a broken file) and are left out.
  static func session(_ markdown: String) -> [Step] {
    var steps: [Step] = []
    var inBlock = false
    var replayed = false
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") {
        inBlock.toggle()
        replayed = inBlock && line == "```"
        continue
      }
      guard inBlock, replayed else { continue }
      if line.hasPrefix(">> ") {
        steps.append(.sendOther(String(line.dropFirst(3))))
      } else if line.hasPrefix("> ") {
        steps.append(.send(String(line.dropFirst(2))))
      } else if line.hasPrefix("< ") {
        steps.append(.receive(String(line.dropFirst(2))))
      }
    }
    return steps
  }

  /// The day the document's `STATS` examples were made on, as it says.
  static let documentedToday = CivilDate(year: 2026, month: 11, day: 30)

  /// Whether `actual` is the documented line: the same words, except that a documented running
  /// pulse window or timed do-not-disturb (`pulse=` or `left=` above 0) matches any running
  /// one, and a documented date
  /// (`2026-11-24`, `from=2026-11-24`) matches the date as many days before `today` as it is
  /// before `documentedToday`.
  static func matches(_ actual: String, documented: String, today: CivilDate = documentedToday) -> Bool {
    let a = actual.split(separator: " ", omittingEmptySubsequences: false)
    let d = documented.split(separator: " ", omittingEmptySubsequences: false)
    guard a.count == d.count else { return false }
    for (x, y) in zip(a, d) {
      if let moved = shifted(y, to: today) {
        guard x == moved else { return false }
        continue
      }
      if x == y { continue }
      guard let key = ["pulse=", "left="].first(where: { x.hasPrefix($0) && y.hasPrefix($0) }),
        let xs = Int(x.dropFirst(key.count)), let ys = Int(y.dropFirst(key.count)), xs > 0, ys > 0
      else { return false }
    }
    return true
  }

  /// A documented word holding a date, with the date moved from `documentedToday` to `today`.
  static func shifted(_ word: Substring, to today: CivilDate) -> Substring? {
    let key = word.firstIndex(of: "=").map { word[...$0] } ?? ""
    guard let date = CivilDate(word.dropFirst(key.count)) else { return nil }
    let moved = CivilDate(dayNumber: date.dayNumber - documentedToday.dayNumber + today.dayNumber)
    return Substring(key + moved.description)
  }

  /// Today in UTC, the time zone the replayed daemon runs in.
  static var utcToday: CivilDate {
    CivilDate(dayNumber: Int(Date().timeIntervalSince1970 / 86400))
  }

  @Test func theDocumentedSessionIsWhatTheDaemonAnswers() throws {
    let document = try String(contentsOfFile: Repository.path("docs/PROTOCOL.md"), encoding: .utf8)
    let steps = Self.session(document)
    #expect(steps.filter { if case .send = $0 { true } else { false } }.count >= 20, "the session covers every command")
    let folder = try TemporaryFolder()
    // The default config path, which does not exist: the daemon runs on defaults, as the
    // document says, and RELOAD reads the same (absent) file.
    let daemon = try DaemonProcess(
      folder: folder, environment: ["XDG_CONFIG_HOME": folder.file("config"), "TZ": "UTC"])
    let today = Self.utcToday
    let client = try daemon.client()
    let other = try daemon.client()
    var sent = Set<String>()
    for step in steps {
      switch step {
      case .send(let line):
        try client.send(line + "\n")
        sent.insert(String(line.split(separator: " ")[0]))
      case .sendOther(let line):
        _ = try other.request(line)
      case .receive(let documented):
        let actual = try #require(try client.readLine(timeout: 10), "the daemon closed before '\(documented)'")
        #expect(
          Self.matches(actual, documented: documented, today: today), "documented '\(documented)', got '\(actual)'")
      }
    }
    // The session ends with QUIT: nothing more than the document shows, then the end.
    #expect(try client.readLine(timeout: 5) == nil)
    for command in [
      "HELLO", "PING", "INCR", "DECR", "SET", "CLEAR", "GET", "LIST", "MUTE", "UNMUTE", "CONFIGURE",
      "WATCH", "UNWATCH", "STATS", "RELOAD", "QUIT", "SEEN", "PULSE", "DND",
    ] {
      #expect(sent.contains(command), "PROTOCOL.md has an example of \(command)")
    }
  }

  @Test func pulseMillisecondsAreTheOnlyWordAllowedToDiffer() {
    let documented = "STATE mail count=3 label=3 dot=0 pulse=2994 muted=0 seq=9"
    #expect(Self.matches("STATE mail count=3 label=3 dot=0 pulse=12 muted=0 seq=9", documented: documented))
    #expect(!Self.matches("STATE mail count=3 label=3 dot=0 pulse=0 muted=0 seq=9", documented: documented))
    #expect(!Self.matches("STATE mail count=3 label=3 dot=0 pulse=12 muted=0 seq=10", documented: documented))
    #expect(!Self.matches("STATE mail count=3 label=3 dot=0 pulse=12 muted=0", documented: documented))
    #expect(Self.matches("STATE * dnd=1 left=1799990", documented: "STATE * dnd=1 left=1800000"))
    #expect(!Self.matches("STATE * dnd=1 left=0", documented: "STATE * dnd=1 left=1800000"))
  }

  @Test func documentedDatesMoveWithTheDayTheTestRuns() {
    let documented = "STATS mail period=week from=2026-11-24 to=2026-11-30 arrivals=1 clears=0 peak=1"
    let later = CivilDate(year: 2027, month: 3, day: 2)
    #expect(
      Self.matches(
        "STATS mail period=week from=2027-02-24 to=2027-03-02 arrivals=1 clears=0 peak=1", documented: documented,
        today: later))
    #expect(
      !Self.matches(
        "STATS mail period=week from=2027-02-23 to=2027-03-02 arrivals=1 clears=0 peak=1", documented: documented,
        today: later))
    #expect(!Self.matches(documented, documented: documented, today: later))
    #expect(
      Self.matches(
        "DAY mail 2026-11-30 arrivals=1 clears=0 peak=1", documented: "DAY mail 2026-11-30 arrivals=1 clears=0 peak=1"))
    #expect(
      !Self.matches(
        "DAY mail 2026-11-29 arrivals=1 clears=0 peak=1", documented: "DAY mail 2026-11-30 arrivals=1 clears=0 peak=1"))
  }
}
