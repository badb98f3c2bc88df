import BadgeCore
import BadgeSystem
import Glibc
import Testing

/// The log's levels, filtering and `<N>` prefixes, read back from fd 2.
///
/// Serialized: each test points fd 2 at a pipe for a moment, and two at once would read each
/// other's lines.
@Suite(.serialized) struct LoggerTests {
  static let marker = "logger-test"

  /// The lines containing `marker` that `body` writes to fd 2. Other tests run meanwhile and
  /// Swift Testing prints to fd 2 too: every other captured line is written back to it.
  static func capture(_ body: () -> Void) -> [String] {
    var fds: [CInt] = [-1, -1]
    precondition(pipe(&fds) == 0)
    let saved = dup(2)
    dup2(fds[1], 2)
    Glibc.close(fds[1])
    body()
    dup2(saved, 2)
    Glibc.close(saved)
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while case let n = Glibc.read(fds[0], &buffer, buffer.count), n > 0 { data += buffer[..<n] }
    Glibc.close(fds[0])
    var mine: [String] = []
    var others: [UInt8] = []
    for line in data.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
      let text = String(decoding: line, as: UTF8.self)
      if text.contains(marker) { mine.append(text) } else { others += line + [0x0A] }
    }
    if !others.isEmpty { _ = others.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) } }
    return mine
  }

  @Test func levelsAreSyslogPrioritiesMostSevereFirst() {
    #expect(Logger.Level.allCases.map(\.rawValue) == Array(0...7))
    #expect(Logger.Level.allCases.map(\.name) == ["emerg", "alert", "crit", "err", "warning", "notice", "info", "debug"])
    #expect(Logger.Level.emergency < .error)
    #expect(Logger.Level.info < .debug)
    #expect(!(Logger.Level.debug < .debug))
  }

  @Test func levelsParseFromNamesAndNumbers() {
    for level in Logger.Level.allCases {
      #expect(Logger.Level(name: level.name) == level)
      #expect(Logger.Level(name: String(level.rawValue)) == level)
    }
    for text in ["", "error", "warn", "INFO", "Debug", "8", "-1", " info"] {
      #expect(Logger.Level(name: text) == nil, "'\(text)'")
    }
  }

  @Test func messagesLessSevereThanTheLevelAreDropped() {
    let logger = Logger(level: .warning, destination: .standardError(priorityPrefix: true))
    let lines = Self.capture {
      for level in Logger.Level.allCases { logger.log(level, "\(Self.marker) \(level.name)") }
    }
    #expect(lines == ["<0>logger-test emerg", "<1>logger-test alert", "<2>logger-test crit", "<3>logger-test err", "<4>logger-test warning"])
  }

  @Test func eachShorthandLogsAtItsLevel() {
    let logger = Logger(level: .debug, destination: .standardError(priorityPrefix: true))
    let lines = Self.capture {
      logger.error("\(Self.marker) e")
      logger.warning("\(Self.marker) w")
      logger.notice("\(Self.marker) n")
      logger.info("\(Self.marker) i")
      logger.debug("\(Self.marker) d")
    }
    #expect(lines == ["<3>logger-test e", "<4>logger-test w", "<5>logger-test n", "<6>logger-test i", "<7>logger-test d"])
  }

  @Test func withoutPrefixesLinesAreTheMessageAlone() {
    let logger = Logger(level: .info, destination: .standardError(priorityPrefix: false))
    let lines = Self.capture {
      logger.error("\(Self.marker) Failed to bind: Address already in use")
      logger.debug("\(Self.marker) dropped")
    }
    #expect(lines == ["logger-test Failed to bind: Address already in use"])
  }

  @Test func aMessageIsAlwaysOneLine() {
    let logger = Logger(level: .info, destination: .standardError(priorityPrefix: true))
    let lines = Self.capture {
      logger.error("\(Self.marker) Unknown command 'x\n<0>forged\r\nline'")
    }
    #expect(lines == ["<3>logger-test Unknown command 'x <0>forged line'"])  // CR LF is one character
  }

  @Test func aDroppedMessageIsNotBuilt() {
    var built = 0
    func message() -> String {
      built += 1
      return "\(Self.marker) built"
    }
    let logger = Logger(level: .error, destination: .standardError(priorityPrefix: true))
    let lines = Self.capture {
      logger.info(message())
      logger.debug(message())
      logger.error(message())
    }
    #expect(built == 1)
    #expect(lines == ["<3>logger-test built"])
  }

  @Test func defaultsAreInfoAndPrefixesWhenStandardErrorIsNotATerminal() {
    let logger = Logger()
    #expect(logger.level == .info)
    // Outside systemd (no JOURNAL_STREAM naming standard error), lines go to standard error.
    if Environment.value("JOURNAL_STREAM") == nil {
      #expect(logger.destination == .standardError(priorityPrefix: isatty(2) != 1))
    }
  }
}
