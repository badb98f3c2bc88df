import BadgeOptions
import Testing

/// The long options of badged and badged-mqtt, read in order, and every way a line is wrong.
@Suite struct ProgramOptionsTests {
  static func read(_ arguments: [String]) throws(ProgramOptions.UsageError) -> [ProgramOptions.Option] {
    var options: [ProgramOptions.Option] = []
    try ProgramOptions.read(arguments, valued: ["--socket", "--log-level"], flags: ["--foreground"]) {
      options.append($0)
    }
    return options
  }

  static func failure(_ arguments: [String]) -> String? {
    do {
      _ = try read(arguments)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func valuesAndFlagsInEitherForm() throws {
    #expect(
      try Self.read(["--socket", "/a", "--foreground", "--log-level=debug"]) == [
        .init(name: "--socket", value: "/a"), .init(name: "--foreground"), .init(name: "--log-level", value: "debug"),
      ])
  }

  @Test func helpAndVersionEndTheReading() throws {
    #expect(
      try Self.read(["--socket", "/a", "-h", "--bogus"]) == [.init(name: "--socket", value: "/a"), .init(name: "-h")])
    #expect(try Self.read(["--version", "extra"]) == [.init(name: "--version")])
  }

  @Test(arguments: [
    (["--bogus"], "Unknown option '--bogus'"), (["-x"], "Unknown option '-x'"),
    (["extra"], "Unexpected argument 'extra'"),
    (["--socket"], "Missing value for '--socket'"), (["--socket", "--foreground"], "Missing value for '--socket'"),
    (["--socket="], "Empty value for '--socket'"),
  ])
  func aWrongLineSaysWhatIsWrong(arguments: [String], message: String) {
    #expect(Self.failure(arguments) == message)
  }

  @Test func theFirstMistakeIsTheOneReported() {
    var seen: [String] = []
    #expect(
      throws: ProgramOptions.UsageError(
        message: "Invalid log level 'loud'; expected one of emerg, alert, crit, err, warning, notice, info, debug")
    ) {
      try ProgramOptions.read(["--log-level", "loud", "--bogus"], valued: ["--log-level"]) {
        option throws(ProgramOptions.UsageError) in
        seen.append(option.name)
        _ = try ProgramOptions.logLevel(option.value!)
      }
    }
    #expect(seen == ["--log-level"])
    #expect((try? ProgramOptions.logLevel("7")) == .debug)
  }
}
