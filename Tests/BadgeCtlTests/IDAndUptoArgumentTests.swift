import BadgeCore
import Testing

@testable import BadgeCtl

/// `--id` on the commands that change a count, and `--upto` on `clear`, `seen` and `open`.
@Suite struct IDAndUptoArgumentTests {
  @Test func anIdEndsTheRequest() {
    #expect(
      words(parse(["incr", "ci", "--id", "build:4711"], as: IncrCommand.self)) == [
        "INCR", "ci", "1", "id=build:4711",
      ])
    #expect(words(parse(["decr", "ci", "2", "--id=x"], as: DecrCommand.self)) == ["DECR", "ci", "2", "id=x"])
    #expect(words(parse(["set", "ci", "0", "--id", "x"], as: SetCommand.self)) == ["SET", "ci", "0", "id=x"])
    #expect(words(parse(["clear", "ci", "--id", "x"], as: ClearCommand.self)) == ["CLEAR", "ci", "id=x"])
    #expect(words(parse(["clear", "--all", "--id", "x"], as: ClearCommand.self)) == ["CLEAR", "*", "id=x"])
    #expect(words(parse(["seen", "--all", "--id", "x"], as: SeenCommand.self)) == ["SEEN", "*", "id=x"])
    let longest = String(repeating: "t", count: 64)
    #expect(parse(["incr", "ci", "--id", longest], as: IncrCommand.self)?.arguments.id == longest)
  }

  @Test func uptoClearsOrSeesUpToATotal() {
    #expect(words(parse(["clear", "ci", "--upto", "5"], as: ClearCommand.self)) == ["CLEAR", "ci", "upto=5"])
    #expect(
      words(parse(["clear", "ci", "--upto", "0", "--id", "x"], as: ClearCommand.self)) == [
        "CLEAR", "ci", "upto=0", "id=x",
      ])
    #expect(words(parse(["seen", "ci", "--upto=9"], as: SeenCommand.self)) == ["SEEN", "ci", "upto=9"])
    #expect(parse(["clear", "ci"], as: ClearCommand.self)?.arguments.upTo == nil, "plain clear stays a full clear")
    let open = parse(["open", "app:org.example.App", "--upto", "3"], as: OpenCommand.self)
    #expect(open?.upTo == 3 && words(open) == ["CLEAR", "app:org.example.App", "upto=3"])
  }

  static let tokenRule = "ids are 1-64 characters from A-Z a-z 0-9 . _ : -"
  static let totals = "expected a whole number from 0 to 9223372036854775807"

  @Test(
    arguments: [
      (["incr", "ci", "--id", ""], "Invalid value '' for '--id <id>'; \(tokenRule)", "incr"),
      (["incr", "ci", "--id", "a b"], "Invalid value 'a b' for '--id <id>'; \(tokenRule)", "incr"),
      (["decr", "ci", "--id", "a\nINCR x"], "Invalid value 'a\nINCR x' for '--id <id>'; \(tokenRule)", "decr"),
      (["set", "ci", "1", "--id", "a=b"], "Invalid value 'a=b' for '--id <id>'; \(tokenRule)", "set"),
      (
        ["clear", "ci", "--id", String(repeating: "t", count: 65)],
        "Invalid value '\(String(repeating: "t", count: 65))' for '--id <id>'; \(tokenRule)", "clear"
      ),
      (["seen", "ci", "--id", "é"], "Invalid value 'é' for '--id <id>'; \(tokenRule)", "seen"),
      (["incr", "ci", "--id"], "Missing value for '--id <id>'", "incr"),
      (["clear", "ci", "--upto", "-1"], "Invalid value '-1' for '--upto <total>'; \(totals)", "clear"),
      (["clear", "ci", "--upto", "x"], "Invalid value 'x' for '--upto <total>'; \(totals)", "clear"),
      (["seen", "ci", "--upto", "1.5"], "Invalid value '1.5' for '--upto <total>'; \(totals)", "seen"),
      (["open", "app:a", "--upto", ""], "Invalid value '' for '--upto <total>'; \(totals)", "open"),
      (
        ["clear", "--all", "--upto", "3"], "--upto takes one channel, not --all: each channel has its own total",
        "clear"
      ),
      (
        ["seen", "--all", "--upto", "3"], "--upto takes one channel, not --all: each channel has its own total", "seen"
      ),
      (["incr", "ci", "--upto", "3"], "Unknown option '--upto'", "incr"),
      (["get", "ci", "--id", "x"], "Unknown option '--id'", "get"),
    ] as [([String], String, String)])
  func badValuesAreRefused(words: [String], message: String, command: String) {
    #expect(refusal(words) == usageError(message, of: command))
  }
}
