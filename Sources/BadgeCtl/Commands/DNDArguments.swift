import BadgeCore
import BadgeProtocol
import BadgeRender
import BadgeSystem

/// `badgectl dnd`'s arguments, turned into a `DND` request: `on [<duration> | until <HH:MM>]`,
/// `off`, `toggle`, `status`.
enum DNDArguments {
  static func requestWords(_ args: [String]) throws(CtlError) -> [String] {
    func usage(_ message: String) -> CtlError { .usage(UsageError(message, command: "dnd")) }
    switch args[0] {
    case "off", "toggle", "status":
      guard args.count == 1 else { throw usage("Unexpected argument '\(args[1])'") }
      return args[0] == "status" ? ["DND"] : ["DND", args[0]]
    case "on":
      if args.count == 1 { return ["DND", "on"] }
      if args[1] == "until" {
        guard args.count == 3 else { throw usage("Expected 'until <HH:MM>', e.g. until 18:00") }
        guard let (hour, minute) = clockTime(args[2]) else {
          throw usage("Invalid time '\(args[2])'; expected HH:MM from 00:00 to 23:59")
        }
        let ms = LocalTime.millisecondsUntil(hour: hour, minute: minute)
        return ["DND", "on", "\(ms)ms"]
      }
      guard args.count == 2 else { throw usage("Unexpected argument '\(args[2])'") }
      guard let ms = DurationParser.milliseconds(args[1]) else {
        throw usage("Invalid duration '\(args[1])'; expected a whole number and a unit: 90s, 30m, 2h (or until HH:MM)")
      }
      guard Limits.dndMs.contains(ms) else { throw usage("The duration '\(args[1])' is over the longest, 30 days") }
      return ["DND", "on", args[1]]
    default:
      throw usage("Unknown argument '\(args[0])'; expected on, off, toggle or status")
    }
  }

  /// `HH:MM` (or `H:MM`) on a 24-hour clock.
  static func clockTime(_ text: String) -> (Int, Int)? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
      let hour = DecimalParser.parse(parts[0].utf8), let minute = DecimalParser.parse(parts[1].utf8),
      hour < 24, minute < 60
    else { return nil }
    return (hour, minute)
  }
}

extension SnapshotFormat {
  /// The do-not-disturb state: `dnd on (30m left)`, `dnd on`, `dnd off`; or
  /// `{"dnd":true,"left":1800000}`.
  func line(_ dnd: DNDSnapshot) -> String {
    switch self {
    case .plain:
      guard dnd.isOn else { return "dnd off" }
      return dnd.leftMs > 0 ? "dnd on (\(SnapshotFormat.duration(dnd.leftMs)) left)" : "dnd on"
    case .json:
      var object = JSONObject()
      object.add("dnd", dnd.isOn)
      object.add("left", dnd.leftMs)
      return object.text
    }
  }

  /// A duration in its largest whole units, rounded up: `2h`, `1h 30m`, `30m`, `45s`.
  static func duration(_ ms: Int) -> String {
    let seconds = (ms + 999) / 1000
    if seconds < 60 { return "\(seconds)s" }
    let minutes = (seconds + 59) / 60
    if minutes < 60 { return "\(minutes)m" }
    return minutes % 60 == 0 ? "\(minutes / 60)h" : "\(minutes / 60)h \(minutes % 60)m"
  }
}
