import BadgeCore
import BadgeRender
import Testing

@testable import BadgeCtl

/// Each kind of value on its own: what it reads, and how it refuses.
@Suite struct ValueKindTests {
  /// The refusal of `text` by `kind`, or `nil` when it reads.
  private func refusal<Value>(_ kind: ValueKind<Value>, _ text: String) -> ValueRefusal? {
    do throws(ValueRefusal) {
      _ = try kind.value(of: text)
      return nil
    } catch {
      return error
    }
  }

  @Test func channel() throws {
    #expect(try ValueKind.channel.value(of: "app:org.example.App") == ChannelName("app:org.example.App"))
    #expect(try ValueKind.channel.value(of: String(repeating: "x", count: 64)).count == 64)
    for bad in ["", "-mail", "a/b", "mäil", "m*", String(repeating: "x", count: 65)] {
      #expect(refusal(.channel, bad) == .expected(namingRule), "\(bad)")
    }
    #expect(ValueKind<ChannelName>.channel.noun == "channel name")
  }

  @Test func pattern() throws {
    #expect(try ValueKind.pattern.value(of: "app:*").isGlob)
    #expect(try ValueKind.pattern.value(of: "mail").exactName == ChannelName("mail"))
    #expect(refusal(.pattern, "a/b") == .expected("\(namingRule), or * and ?"))
  }

  @Test func number() throws {
    let kind = ValueKind.number(1...10)
    #expect(try kind.value(of: "1") == 1 && kind.value(of: "10") == 10 && kind.value(of: "007") == 7)
    for bad in ["0", "11", "", "x", "-1", "+1", "1.0", " 1", "1e1"] {
      #expect(refusal(kind, bad) == .expected("expected a whole number from 1 to 10"), "\(bad)")
    }
    #expect(kind.noun == "number" && ValueKind.number(1...2, noun: "length").noun == "length")
  }

  @Test func choice() throws {
    let kind = ValueKind<SnapshotFormat>.choice
    #expect(try kind.value(of: "json") == .json)
    #expect(kind.choices == ["plain", "json"])
    #expect(refusal(kind, "JSON") == .expected("expected one of plain, json"))
    #expect(ValueKind<StatsPeriod>.choice.choices == ["day", "week", "month", "year"])
  }

  @Test func template() throws {
    #expect(try ValueKind.template.value(of: "{channel}: {count}") == Template("{channel}: {count}"))
    #expect(
      refusal(.template, "{x}")
        == .message(
          "Unknown placeholder '{x}' in template '{x}'; expected {channel}, {count}, {label}, {icon} or {text}"))
  }

  @Test func textAndWordsAreTakenAsTheyAre() throws {
    #expect(try ValueKind.text.value(of: "kill -USR1 %pid%") == "kill -USR1 %pid%")
    #expect(try ValueKind.text.value(of: "") == "")
    #expect(try ValueKind.word.value(of: "until") == "until")
  }

  @Test func setting() throws {
    #expect(try ValueKind.setting.value(of: "style=dot") == "style=dot")
    #expect(try ValueKind.setting.value(of: "export=") == "export=")
    #expect(refusal(.setting, "style") == .message("Expected <key>=<value>, got 'style'"))
    #expect(
      refusal(.setting, "a=b\tc")
        == .message(
          "Invalid argument 'a=b\\tc'; arguments hold no spaces or control characters"))
  }

  @Test func command() throws {
    #expect(try ValueKind.command.value(of: "dnd").name == "dnd")
    #expect(refusal(.command, "lsit") == .message("Unknown command 'lsit'. Did you mean 'list'?"))
    #expect(refusal(.command, "zzz") == .message("Unknown command 'zzz'."))
  }

  @Test func clockTimeAndDoNotDisturbLength() throws {
    #expect(try ValueKind.clockTime.value(of: "23:59") == DNDCommand.ClockTime(hour: 23, minute: 59))
    #expect(refusal(.clockTime, "24:00") == .expected("expected HH:MM from 00:00 to 23:59"))
    #expect(try ValueKind.dndLength.value(of: "30m") == 1_800_000)
    #expect(
      refusal(.dndLength, "30")
        == .expected(
          "expected a whole number and a unit: 90s, 30m, 2h (or until HH:MM)"))
    #expect(refusal(.dndLength, "31d") != nil)
    #expect(refusal(.dndLength, "43201m") == .message("The duration '43201m' is over the longest, 30 days"))
  }

  @Test func aRefusalIsWordedForAnArgumentOrAnOption() {
    #expect(
      ValueRefusal.expected("expected one of a, b").message(opening: "Invalid value 'c' for '--x <y>'")
        == "Invalid value 'c' for '--x <y>'; expected one of a, b")
    #expect(ValueRefusal.message("Its own words").message(opening: "Invalid number '0'") == "Its own words")
  }
}
