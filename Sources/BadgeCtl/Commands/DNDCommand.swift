import BadgeCore
import BadgePOSIX
import BadgeProtocol

/// `badgectl dnd on [<duration> | until <HH:MM>] | off | toggle | status`: a `DND` request.
struct DNDCommand: RequestCommand {
  static let spec = CommandSpec(
    name: "dnd", abstract: "Turn do-not-disturb on or off, or show it.",
    discussion: """
      While do-not-disturb is on, counts go on but badges are hidden, dimmed or shown as the
      daemon's dnd_badges says, nothing pulses and no hook runs; channels with dnd = ignore
      are left alone. It lasts until 'dnd off', or for a DURATION (90s, 30m, 2h; at most 30
      days), or until a local time (until 18:00, the next time the clock reads it); the
      daemon ends it by itself and keeps it across restarts. 'toggle' turns it off when it is
      on, else on until turned off. Prints the state: 'dnd on (30m left)', 'dnd on', 'dnd off'.
      """,
    usage: "on [<duration> | until <HH:MM>] | off | toggle | status",
    arguments: [
      CommandSpec.Argument(name: "on|off|toggle|status", kind: .word, help: "What to do; status only shows it."),
      CommandSpec.Argument(
        name: "<duration>", kind: .word, help: "How long: a whole number and a unit, ms, s, m or h."),
    ],
    options: [CommandSpec.formatOption], positionals: 1...3)

  /// What to do with do-not-disturb.
  enum Action: Equatable {
    /// Only show it.
    case status
    case off
    case toggle
    /// On until turned off (`nil`), for a while, or until a time of day.
    case on(Until?)
  }

  /// When do-not-disturb that is turned on ends by itself.
  enum Until: Equatable {
    /// After this many milliseconds (`dnd on 2h`).
    case after(milliseconds: Int)
    /// The next time the local clock reads this (`dnd on until 18:00`).
    case clock(ClockTime)
  }

  /// A time of day on a 24-hour clock.
  struct ClockTime: Equatable {
    let hour: Int
    let minute: Int
  }

  /// The first word: what to do.
  private enum Word: String, CaseIterable {
    case on, off, toggle, status
  }

  let action: Action
  let format: SnapshotFormat

  init(_ arguments: inout CommandArguments) throws(UsageError) {
    switch try arguments.required(Self.word) {
    case .status: action = .status
    case .off: action = .off
    case .toggle: action = .toggle
    case .on:
      if arguments.take("until") {
        guard let time = try arguments.next(.clockTime) else {
          throw arguments.usageError("Expected 'until <HH:MM>', e.g. until 18:00")
        }
        action = .on(.clock(time))
      } else {
        action = .on(try arguments.next(.dndLength).map { .after(milliseconds: $0) })
      }
    }
    format = try arguments.value(CommandSpec.formatOption) ?? .plain
  }

  /// The request; a time of day becomes the milliseconds until it, from now.
  var request: Request {
    switch action {
    case .status: return .dnd(.query)
    case .off: return .dnd(.off)
    case .toggle: return .dnd(.toggle)
    case .on(nil): return .dnd(.on(ms: nil))
    case .on(.after(let ms)?): return .dnd(.on(ms: ms))
    case .on(.clock(let time)?):
      return .dnd(.on(ms: LocalTime.millisecondsUntil(hour: time.hour, minute: time.minute)))
    }
  }

  private static let word = ValueKind<Word>(noun: "argument") { (text) throws(ValueRefusal) in
    guard let word = Word(rawValue: text) else {
      throw .message("Unknown argument '\(text)'; expected on, off, toggle or status")
    }
    return word
  }
}

extension ValueKind where Value == DNDCommand.ClockTime {
  /// `HH:MM` (or `H:MM`) on a 24-hour clock.
  static var clockTime: Self {
    Self(noun: "time") { (text) throws(ValueRefusal) in
      let parts = text.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
        let hour = DecimalParser.parse(parts[0].utf8), let minute = DecimalParser.parse(parts[1].utf8),
        hour < 24, minute < 60
      else { throw .expected("expected HH:MM from 00:00 to 23:59") }
      return DNDCommand.ClockTime(hour: hour, minute: minute)
    }
  }
}

extension ValueKind where Value == Int {
  /// How long do-not-disturb lasts, in milliseconds: a whole number and a unit, at most 30 days.
  static var dndLength: Self {
    Self(noun: "duration") { (text) throws(ValueRefusal) in
      guard let ms = DurationParser.milliseconds(text) else {
        throw .expected("expected a whole number and a unit: 90s, 30m, 2h (or until HH:MM)")
      }
      guard Limits.dndMs.contains(ms) else { throw .message("The duration '\(text)' is over the longest, 30 days") }
      return ms
    }
  }
}
