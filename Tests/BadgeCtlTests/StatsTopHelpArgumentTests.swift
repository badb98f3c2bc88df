import BadgeCore
import BadgeProtocol
import Testing

@testable import BadgeCtl

/// `stats`, `top` and `help`.
@Suite struct StatsTopHelpArgumentTests {
  static func surroundings(terminal: Bool, columns: Int? = nil) -> StatsSettings.Surroundings {
    StatsSettings.Surroundings(outputIsTerminal: terminal, noMotion: false, dumbTerminal: false, columns: columns)
  }

  @Test func statsDefaultsToTodayInTheSurroundingsFormat() throws {
    let stats = try #require(parse(["stats"], as: StatsCommand.self))
    #expect(stats.patterns == [] && stats.period == .day && stats.format == nil && !stats.noMotion)
    let piped = StatsSettings(stats, surroundings: Self.surroundings(terminal: false))
    #expect(
      piped.format == .plain && !piped.motion && piped.width == 80 && RequestEncoder.line(piped.request) == "STATS day")
    let terminal = StatsSettings(stats, surroundings: Self.surroundings(terminal: true, columns: 1000))
    #expect(terminal.format == .term && terminal.motion && terminal.width == 400)
  }

  @Test func statsReadsEveryOption() throws {
    let stats = try #require(
      parse(["stats", "mail", "app:*", "--period", "year", "--format=json", "--no-motion"], as: StatsCommand.self))
    #expect(stats.patterns.map(\.description) == ["mail", "app:*"] && stats.period == .year)
    #expect(stats.format == .json && stats.noMotion)
    #expect(
      RequestEncoder.line(StatsSettings(stats, surroundings: Self.surroundings(terminal: true)).request)
        == "STATS year mail app:*")
    let still = try #require(parse(["stats", "--no-motion", "--format", "term"], as: StatsCommand.self))
    #expect(!StatsSettings(still, surroundings: Self.surroundings(terminal: true, columns: 5)).motion)
    #expect(StatsSettings(still, surroundings: Self.surroundings(terminal: true, columns: 5)).width == 20)
  }

  @Test func topTakesGlobsAndNoMotion() {
    let top = parse(["top", "app:*", "mail", "--no-motion"], as: TopCommand.self)
    #expect(top?.patterns.map(\.description) == ["app:*", "mail"] && top?.noMotion == true)
    #expect(parse(["top"], as: TopCommand.self)?.patterns == [])
  }

  @Test func helpNamesACommand() {
    #expect(parse(["help", "watch"], as: HelpCommand.self)?.topic?.name == "watch")
    #expect(parse(["help", "help"], as: HelpCommand.self)?.topic?.name == "help")
  }

  @Test(
    arguments: [
      (
        ["stats", "--period", "hour"],
        "Invalid value 'hour' for '--period <period>'; expected one of day, week, month, year", "stats"
      ),
      (
        ["stats", "--format", "xml"], "Invalid value 'xml' for '--format <format>'; expected one of term, json, plain",
        "stats"
      ),
      (
        ["stats", "--format=waybar"],
        "Invalid value 'waybar' for '--format <format>'; expected one of term, json, plain", "stats"
      ),
      (["stats", "--no-motion=1"], "The flag '--no-motion' takes no value", "stats"),
      (["stats", "--perod", "week"], "Unknown option '--perod'. Did you mean '--period'?", "stats"),
      (["stats", "--fps", "30"], "Unknown option '--fps'", "stats"),
      (["stats", "m@il"], "Invalid channel or pattern 'm@il'; \(namingRule), or * and ?", "stats"),
      (["top", "--step", "5"], "Unknown option '--step'", "top"),
      (["top", "--format", "json"], "Unknown option '--format'", "top"),
      (["top", "bad name"], "Invalid channel or pattern 'bad name'; \(namingRule), or * and ?", "top"),
      (["help", "frob"], "Unknown command 'frob'.", "help"),
      (["help", "wacth"], "Unknown command 'wacth'. Did you mean 'watch'?", "help"),
      (["help", "incr", "extra"], "Unexpected argument 'extra'", "help"),
      (["help", "--format", "json"], "Unknown option '--format'", "help"),
    ] as [([String], String, String)])
  func badValuesAreRefused(words: [String], message: String, command: String) {
    #expect(refusal(words) == usageError(message, of: command))
  }
}
