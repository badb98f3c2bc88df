import BadgeCore
import BadgeRender
import Testing

@testable import BadgeCtl

/// `watch`: its options read into `WatchCommand`, then resolved with the surroundings and
/// checked against each other in `WatchSettings`.
@Suite struct WatchArgumentTests {
  /// A bar's pipe, or a terminal.
  static func surroundings(terminal: Bool) -> WatchSettings.Surroundings {
    WatchSettings.Surroundings(
      noColour: false, dumbTerminal: false, trueColour: false, noMotion: false, outputIsTerminal: terminal,
      inputIsPipe: !terminal, inputIsSharedWithI3blocks: false)
  }

  @Test func nothingGivenWatchesEveryChannelInTheDefaults() {
    let watch = parse(["watch"], as: WatchCommand.self)
    #expect(watch?.patterns == [] && watch?.format == nil && watch?.framesPerSecond == nil)
    #expect(watch?.noMotion == false && watch?.template == nil && watch?.maxLabel == nil)
    #expect(watch?.big == false && watch?.clickCommand == nil && watch?.opensApps == false)
  }

  @Test func everyOptionReadsIntoItsField() throws {
    let watch = try #require(
      parse(
        [
          "watch", "mail", "app:*", "--format", "polybar", "--fps", "1000", "--no-motion", "--template",
          "{channel}={count}",
          "--max", "99", "--click", "badgectl clear mail", "--open",
        ],
        as: WatchCommand.self))
    #expect(watch.patterns.map(\.description) == ["mail", "app:*"])
    #expect(watch.format == .polybar && watch.framesPerSecond == 1000 && watch.noMotion)
    #expect(watch.template == (try Template("{channel}={count}")) && watch.maxLabel == 99)
    #expect(watch.clickCommand == "badgectl clear mail" && watch.opensApps && !watch.big)
    #expect(parse(["watch", "--big", "--fps=1", "--max=2147483647"], as: WatchCommand.self)?.big == true)
  }

  @Test(arguments: [
    (["watch", "a/b"], "Invalid channel or pattern 'a/b'; \(namingRule), or * and ?"),
    (["watch", "mail", ""], "Invalid channel or pattern ''; \(namingRule), or * and ?"),
    (["watch", "--fps", "0"], "Invalid value '0' for '--fps <n>'; expected a whole number from 1 to 1000"),
    (["watch", "--fps", "fast"], "Invalid value 'fast' for '--fps <n>'; expected a whole number from 1 to 1000"),
    (["watch", "--fps", "1001"], "Invalid value '1001' for '--fps <n>'; expected a whole number from 1 to 1000"),
    (["watch", "--max", "0"], "Invalid value '0' for '--max <n>'; expected a whole number from 1 to 2147483647"),
    (
      ["watch", "--format", "html"],
      "Invalid value 'html' for '--format <format>'; expected one of term, waybar, polybar, i3blocks, tmux, eww, "
        + "json, yambar, plain, frames"
    ),
    (
      ["watch", "--template", "{nope}"],
      "Unknown placeholder '{nope}' in template '{nope}'; expected {channel}, {count}, {label}, {icon} or {text}"
    ),
    (
      ["watch", "--template", "{label"],
      "Unclosed '{' at position 0 in template '{label'; write '{{' for a literal brace"
    ),
    (["watch", "--big=1"], "The flag '--big' takes no value"),
    (["watch", "--click"], "Missing value for '--click <command>'"),
    (["watch", "--period", "day"], "Unknown option '--period'"),
  ])
  func badValuesAreRefused(words: [String], message: String) {
    #expect(refusal(words) == usageError(message, of: "watch"))
  }

  /// The error `WatchSettings` gives for `words` in `surroundings`, or `nil`.
  private func conflict(_ words: [String], terminal: Bool) -> Refusal? {
    guard let watch = parse(words, as: WatchCommand.self) else { return nil }
    do throws(CtlError) {
      _ = try WatchSettings(watch, surroundings: Self.surroundings(terminal: terminal))
      return nil
    } catch {
      return Refusal(text: error.message, status: error.exitStatus)
    }
  }

  @Test(arguments: [
    (
      ["watch", "--format", "json", "--template", "{label}"], true,
      "'--template' applies to --format term, plain, tmux, polybar, waybar, i3blocks, not 'json'"
    ),
    (["watch", "--format", "waybar", "--big"], false, "'--big' applies to --format term, not 'waybar'"),
    (["watch", "--format", "plain", "--click", "x"], true, "'--click' applies to --format polybar, not 'plain'"),
    // Without --format the surroundings choose: a terminal, or plain text for a pipe.
    (["watch", "--click", "x"], true, "'--click' applies to --format polybar, not 'term'"),
    (["watch", "--click", "x"], false, "'--click' applies to --format polybar, not 'plain'"),
  ])
  func conflictingOptionsAreRefused(words: [String], terminal: Bool, message: String) {
    #expect(conflict(words, terminal: terminal) == usageError(message, of: "watch"))
  }

  @Test func optionsThatFitAreResolved() throws {
    let pipe = Self.surroundings(terminal: false)
    let plain = try WatchSettings(try #require(parse(["watch"], as: WatchCommand.self)), surroundings: pipe)
    #expect(plain.format == .plain && plain.render.colour == .none && !plain.render.rewrite)
    // --big picks the terminal format even into a pipe.
    let big = try WatchSettings(try #require(parse(["watch", "--big"], as: WatchCommand.self)), surroundings: pipe)
    #expect(big.format == .term && big.render.big)
    let bar = try WatchSettings(
      try #require(
        parse(["watch", "--format", "polybar", "--click", "x", "--max", "9", "--fps", "5"], as: WatchCommand.self)),
      surroundings: pipe)
    #expect(bar.render.clickCommand == "x" && bar.animator.maxLabel == 9 && bar.animator.frameInterval == 0.2)
    let clicks = try WatchSettings(
      try #require(parse(["watch", "--format", "i3blocks", "--open"], as: WatchCommand.self)), surroundings: pipe)
    #expect(clicks.readsClicks && clicks.opensApps)
    let terminal = try WatchSettings(
      try #require(parse(["watch", "--no-motion"], as: WatchCommand.self)),
      surroundings: Self.surroundings(terminal: true))
    #expect(terminal.format == .term && terminal.animator.noMotion && terminal.render.colour == .palette256)
  }
}
