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
  /// one, a documented date
  /// (`2026-11-24`, `from=2026-11-24`) matches the date as many days before `today` as it is
  /// before `documentedToday`, and, given `stamps`, the `at=` of a do-not-disturb change made
  /// here (a `*` line without `from=`) is the wall clock of that change, as `stamps` checks.
  static func matches(
    _ actual: String, documented: String, today: CivilDate = documentedToday, stamps: LocalStamps? = nil
  ) -> Bool {
    let a = actual.split(separator: " ", omittingEmptySubsequences: false)
    let d = documented.split(separator: " ", omittingEmptySubsequences: false)
    guard a.count == d.count else { return false }
    let local = d.count > 1 && d[1] == "*" && !d.contains { $0.hasPrefix("from=") }
    for (x, y) in zip(a, d) {
      if let moved = shifted(y, to: today) {
        guard x == moved else { return false }
        continue
      }
      // A local change stamped one past another machine's (a time ahead of the clock) is
      // documented as it is.
      if let stamps, local, x != y, x.hasPrefix("at="), y.hasPrefix("at=") {
        guard stamps.matches(x.dropFirst(3), documented: y.dropFirst(3)) else { return false }
        continue
      }
      if x == y { continue }
      guard let key = ["pulse=", "left="].first(where: { x.hasPrefix($0) && y.hasPrefix($0) }),
        let xs = Int(x.dropFirst(key.count)), let ys = Int(y.dropFirst(key.count)), xs > 0, ys > 0
      else { return false }
    }
    return true
  }

  /// The times of the do-not-disturb changes made during the replay: each documented `at=`
  /// stands for the wall clock of one change, which the first line that shows it learns (it
  /// must lie between the replay's start and now); every later line with the same documented
  /// value must show the same time, and times follow the documented order.
  final class LocalStamps {
    let start: UInt64
    private var learnt: [(documented: UInt64, actual: UInt64)] = []

    init(start: UInt64) { self.start = start }

    func matches(_ actual: Substring, documented: Substring) -> Bool {
      guard let x = UInt64(actual), let y = UInt64(documented) else { return false }
      if let known = learnt.first(where: { $0.documented == y }) { return known.actual == x }
      // A change made in the same millisecond as the one before is stamped one past it, so a
      // stamp may lie ahead of the clock by as many changes as were made before it.
      guard x >= start, x <= wallMilliseconds() + UInt64(learnt.count + 1) else { return false }
      guard learnt.allSatisfy({ ($0.documented < y) == ($0.actual <= x) }) else { return false }
      learnt.append((y, x))
      return true
    }
  }

  /// A documented word holding a date, with the date moved from `documentedToday` to `today`.
  static func shifted(_ word: Substring, to today: CivilDate) -> Substring? {
    let key = word.firstIndex(of: "=").map { word[...$0] } ?? ""
    guard let date = CivilDate(word.dropFirst(key.count)) else { return nil }
    let moved = CivilDate(dayNumber: date.dayNumber - documentedToday.dayNumber + today.dayNumber)
    return Substring(key + moved.description)
  }

  /// The id of a `FORWARD <id> …` line without its counter: `laptop:9f3a1c2e:`.
  static func idPrefix(_ line: String) -> String {
    let id = line.split(separator: " ")[1]
    return String(id[...(id.lastIndex(of: ":") ?? id.startIndex)])
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
    let stamps = LocalStamps(start: wallMilliseconds())
    let client = try daemon.client()
    let other = try daemon.client()
    var sent = Set<String>()
    // The ids of forwarded writes begin with the machine's name and the state folder's epoch,
    // which differ from the document's: learnt from the first FORWARD line, then put in place of
    // the document's in what follows.
    var idPrefix: (documented: String, actual: String)?
    func replacing(_ line: String) -> String {
      guard let (documented, actual) = idPrefix else { return line }
      return line.replacingOccurrences(of: documented, with: actual)
    }
    for step in steps {
      switch step {
      case .send(let line):
        try client.send(replacing(line) + "\n")
        sent.insert(String(line.split(separator: " ")[0]))
      case .sendOther(let line):
        _ = try other.request(line)
      case .receive(let documented):
        let actual = try #require(try client.readLine(timeout: 10), "the daemon closed before '\(documented)'")
        if idPrefix == nil, documented.hasPrefix("FORWARD "), actual.hasPrefix("FORWARD ") {
          idPrefix = (Self.idPrefix(documented), Self.idPrefix(actual))
        }
        #expect(
          Self.matches(actual, documented: replacing(documented), today: today, stamps: stamps),
          "documented '\(documented)', got '\(actual)'")
      }
    }
    // The session ends with QUIT: nothing more than the document shows, then the end.
    #expect(try client.readLine(timeout: 5) == nil)
    for command in [
      "HELLO", "PING", "INCR", "DECR", "SET", "CLEAR", "GET", "LIST", "MUTE", "UNMUTE", "CONFIGURE",
      "WATCH", "UNWATCH", "STATS", "RELOAD", "QUIT", "SEEN", "PULSE", "DND", "BRIDGE", "MIRROR", "STALE",
      "FORWARDS", "DELIVERED", "SOURCES", "SOURCE",
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

  @Test func aLocalChangesTimeIsTheWallClockOfTheReplayTheSameForOneChange() {
    let start = wallMilliseconds()
    let stamps = LocalStamps(start: start)
    let documented = "STATE * dnd=1 left=0 at=1764620000123"
    #expect(!Self.matches("STATE * dnd=1 left=0 at=\(start - 1)", documented: documented, stamps: stamps), "before")
    #expect(Self.matches("STATE * dnd=1 left=0 at=\(start)", documented: documented, stamps: stamps))
    #expect(!Self.matches("STATE * dnd=1 left=0 at=\(start + 1)", documented: documented, stamps: stamps), "learnt")
    #expect(Self.matches("STATE * dnd=1 left=0 at=\(start)", documented: documented, stamps: stamps))
    let earlier = "STATE * dnd=0 left=0 at=1764620000100"
    #expect(!Self.matches("STATE * dnd=0 left=0 at=\(start + 1)", documented: earlier, stamps: stamps), "the order")
    #expect(!Self.matches("STATE * dnd=1 left=0", documented: documented, stamps: stamps))
    let remote = "STATE * dnd=1 left=0 from=desktop at=4102444800000"
    #expect(Self.matches(remote, documented: remote, stamps: stamps))
    #expect(
      !Self.matches("STATE * dnd=1 left=0 from=desktop at=\(start)", documented: remote, stamps: stamps),
      "another machine's time is exact")
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
