import BadgeCore
import BadgeLog
import BadgeSystem
import Glibc
import Testing

/// The log's levels, filtering and `<N>` prefixes, read back from a pipe the log writes as it
/// would standard error.
@Suite struct LoggerTests {
  /// The lines a logger at `level` writing to `destination` writes while `body` runs, read
  /// from a pipe that stands for standard error.
  static func capture(
    level: Logger.Level, _ destination: Logger.Destination, _ body: (Logger) -> Void
  ) throws -> [String] {
    let ends = try FileDescriptor.pipe(nonBlockingRead: true, nonBlockingWrite: false)
    defer { ends.read.close() }
    do {
      let logger = Logger(level: level, sink: LogOutput(destination, standardError: ends.write.rawValue))
      body(logger)
    }
    ends.write.close()
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while case let n = Glibc.read(ends.read.rawValue, &buffer, buffer.count), n > 0 { data += buffer[..<n] }
    return data.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  @Test func levelsAreSyslogPrioritiesMostSevereFirst() {
    #expect(Logger.Level.allCases.map(\.rawValue) == Array(0...7))
    #expect(
      Logger.Level.allCases.map(\.name) == ["emerg", "alert", "crit", "err", "warning", "notice", "info", "debug"])
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

  @Test func messagesLessSevereThanTheLevelAreDropped() throws {
    let lines = try Self.capture(level: .warning, .standardError(priorityPrefix: true)) { logger in
      for level in Logger.Level.allCases { logger.log(level, "logger-test \(level.name)") }
    }
    #expect(
      lines == [
        "<0>logger-test emerg", "<1>logger-test alert", "<2>logger-test crit", "<3>logger-test err",
        "<4>logger-test warning",
      ])
  }

  @Test func eachShorthandLogsAtItsLevel() throws {
    let lines = try Self.capture(level: .debug, .standardError(priorityPrefix: true)) { logger in
      logger.error("logger-test e")
      logger.warning("logger-test w")
      logger.notice("logger-test n")
      logger.info("logger-test i")
      logger.debug("logger-test d")
    }
    #expect(
      lines == ["<3>logger-test e", "<4>logger-test w", "<5>logger-test n", "<6>logger-test i", "<7>logger-test d"])
  }

  @Test func withoutPrefixesLinesAreTheMessageAlone() throws {
    let lines = try Self.capture(level: .info, .standardError(priorityPrefix: false)) { logger in
      logger.error("logger-test Failed to bind: Address already in use")
      logger.debug("logger-test dropped")
    }
    #expect(lines == ["logger-test Failed to bind: Address already in use"])
  }

  @Test func aMessageIsAlwaysOneLine() throws {
    let lines = try Self.capture(level: .info, .standardError(priorityPrefix: true)) { logger in
      logger.error("logger-test Unknown command 'x\n<0>forged\r\nline'")
    }
    #expect(lines == ["<3>logger-test Unknown command 'x <0>forged line'"])  // CR LF is one character
  }

  @Test func aDroppedMessageIsNotBuilt() throws {
    var built = 0
    func message() -> String {
      built += 1
      return "logger-test built"
    }
    let lines = try Self.capture(level: .error, .standardError(priorityPrefix: true)) { logger in
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
