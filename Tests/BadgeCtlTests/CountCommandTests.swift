import Testing

@testable import BadgeCtl

/// `incr`, `decr`, `set` and `pulse`: a channel and a number.
@Suite struct CountCommandTests {
  @Test func incrAddsOneUnlessToldHowMany() {
    let one = parse(["incr", "mail"], as: IncrCommand.self)
    #expect(one?.arguments.channel.description == "mail" && one?.arguments.amount == 1 && one?.format == .plain)
    #expect(words(one) == ["INCR", "mail", "1"])
    let many = parse(["incr", "app:org.example.App", "2147483647", "--format", "json"], as: IncrCommand.self)
    #expect(many?.arguments.amount == 2_147_483_647 && many?.format == .json)
    #expect(words(many) == ["INCR", "app:org.example.App", "2147483647"])
  }

  @Test func decrTakes() {
    let decr = parse(["decr", "mail", "3"], as: DecrCommand.self)
    #expect(words(decr) == ["DECR", "mail", "3"])
    #expect(words(parse(["decr", "mail"], as: DecrCommand.self)) == ["DECR", "mail", "1"])
  }

  @Test func setTakesZeroToTheLargestCount() {
    #expect(words(parse(["set", "ci", "0"], as: SetCommand.self)) == ["SET", "ci", "0"])
    let most = parse(["set", "ci", "2147483647", "--format=json"], as: SetCommand.self)
    #expect(most?.count == 2_147_483_647 && most?.format == .json)
  }

  @Test func pulseTakesItsLengthOrTheChannels() {
    let own = parse(["pulse", "mail"], as: PulseCommand.self)
    #expect(own?.milliseconds == nil && words(own) == ["PULSE", "mail"])
    let longest = parse(["pulse", "mail", "3600000"], as: PulseCommand.self)
    #expect(longest?.milliseconds == 3_600_000 && words(longest) == ["PULSE", "mail", "3600000"])
  }

  static let largest = "expected a whole number from 1 to 2147483647"

  @Test(
    arguments: [
      (["incr", "mail", "0"], "Invalid number '0'; \(largest)", "incr"),
      (["incr", "mail", "x"], "Invalid number 'x'; \(largest)", "incr"),
      (["incr", "mail", "-1"], "Invalid number '-1'; \(largest)", "incr"),
      (["incr", "mail", "1.5"], "Invalid number '1.5'; \(largest)", "incr"),
      (["incr", "mail", "2147483648"], "Invalid number '2147483648'; \(largest)", "incr"),
      (["incr", "mail", "99999999999999999999999"], "Invalid number '99999999999999999999999'; \(largest)", "incr"),
      (["decr", "mail", "0"], "Invalid number '0'; \(largest)", "decr"),
      (
        ["set", "mail", "2147483648"], "Invalid number '2147483648'; expected a whole number from 0 to 2147483647",
        "set"
      ),
      (["set", "mail", "+1"], "Invalid number '+1'; expected a whole number from 0 to 2147483647", "set"),
      (["incr", "bad name"], "Invalid channel name 'bad name'; \(namingRule)", "incr"),
      (["incr", "a/b", "1"], "Invalid channel name 'a/b'; \(namingRule)", "incr"),
      (["incr", ""], "Invalid channel name ''; \(namingRule)", "incr"),
      (
        ["decr", String(repeating: "x", count: 65)],
        "Invalid channel name '\(String(repeating: "x", count: 65))'; \(namingRule)", "decr"
      ),
      (["set", "m*", "1"], "Invalid channel name 'm*'; \(namingRule)", "set"),
      (["pulse", "mail", "0"], "Invalid length '0'; expected a whole number from 1 to 3600000", "pulse"),
      (["pulse", "mail", "3600001"], "Invalid length '3600001'; expected a whole number from 1 to 3600000", "pulse"),
      (["pulse", "mail", "1s"], "Invalid length '1s'; expected a whole number from 1 to 3600000", "pulse"),
      (["pulse", "a/b"], "Invalid channel name 'a/b'; \(namingRule)", "pulse"),
      (["pulse", "mail", "1", "2"], "Unexpected argument '2'", "pulse"),
      (
        ["set", "mail", "1", "--format", "waybar"],
        "Invalid value 'waybar' for '--format <format>'; expected one of plain, json", "set"
      ),
    ] as [([String], String, String)])
  func badValuesAreRefused(words: [String], message: String, command: String) {
    #expect(refusal(words) == usageError(message, of: command))
  }

  @Test func theChannelIsCheckedBeforeTheNumber() {
    #expect(refusal(["incr", "a/b", "0"]) == usageError("Invalid channel name 'a/b'; \(namingRule)", of: "incr"))
  }
}
