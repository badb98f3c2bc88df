/// The per-channel setting keys, shared by the config file (`[channel …]` sections) and the
/// protocol's `CONFIGURE` command so that both accept the same words and the same values.
public enum SettingKey: String, Sendable, CaseIterable {
  case maxLabel = "max_label"
  case style
  case pulseMs = "pulse_ms"
  case muted
  case badge
  case dnd
  case step
  case export

  /// Why a value was refused, phrased to follow "Invalid value 'x' for key: ".
  public struct InvalidValue: Error, Equatable, Sendable {
    public let reason: String
  }

  /// Parses `value` for this key into `override`.
  ///
  /// - Throws: `InvalidValue` with a reason when the value is not accepted.
  public func parse(_ value: String, into override: inout SettingsOverride) throws(InvalidValue) {
    switch self {
    case .maxLabel:
      override.maxLabel = try SettingKey.integer(value, in: Limits.maxLabel)
    case .pulseMs:
      override.pulseMs = try SettingKey.integer(value, in: Limits.pulseMs)
    case .style:
      override.style = try SettingKey.word(value)
    case .muted:
      override.muted = try SettingKey.boolean(value)
    case .badge:
      override.badge = try SettingKey.word(value)
    case .dnd:
      override.dnd = try SettingKey.word(value)
    case .step:
      override.step = try SettingKey.integer(value, in: Limits.step)
    case .export:
      override.export = try SettingKey.desktopID(value)
    }
  }

  /// Removes this key from `override`, so that the value beneath applies again.
  public func reset(in override: inout SettingsOverride) {
    switch self {
    case .maxLabel: override.maxLabel = nil
    case .pulseMs: override.pulseMs = nil
    case .style: override.style = nil
    case .muted: override.muted = nil
    case .badge: override.badge = nil
    case .dnd: override.dnd = nil
    case .step: override.step = nil
    case .export: override.export = nil
    }
  }

  /// The value of this key in `settings`, written the way the config file writes it.
  public func format(_ settings: ChannelSettings) -> String {
    switch self {
    case .maxLabel: return String(settings.maxLabel)
    case .pulseMs: return String(settings.pulseMs)
    case .style: return settings.style.rawValue
    case .muted: return settings.muted ? "yes" : "no"
    case .badge: return settings.badge.rawValue
    case .dnd: return settings.dnd.rawValue
    case .step: return String(settings.step)
    case .export: return settings.export ?? ""
    }
  }

  /// One of the words of an enumeration, exactly as written.
  public static func word<Value: RawRepresentable & CaseIterable>(
    _ text: String
  ) throws(InvalidValue) -> Value where Value.RawValue == String {
    guard let value = Value(rawValue: text) else {
      let words = Value.allCases.map { "'\($0.rawValue)'" }
      throw InvalidValue(reason: "expected " + words.dropLast().joined(separator: ", ") + " or " + words.last!)
    }
    return value
  }

  /// A desktop id as `export` takes it: `A-Z a-z 0-9 . _ -`, with or without `.desktop`
  /// (which is dropped).
  public static func desktopID(_ text: String) throws(InvalidValue) -> String {
    let id = text.hasSuffix(".desktop") ? String(text.dropLast(".desktop".count)) : text
    guard !id.isEmpty, id.utf8.allSatisfy({ ChannelName.isNameByte($0) && $0 != UInt8(ascii: ":") }) else {
      throw InvalidValue(reason: "expected a desktop id such as org.example.App (A-Z a-z 0-9 . _ -)")
    }
    return id
  }

  /// A decimal integer within `range`: digits only, no sign, no spaces.
  public static func integer(_ text: String, in range: ClosedRange<Int>) throws(InvalidValue) -> Int {
    guard let value = DecimalParser.parse(text.utf8) else {
      throw InvalidValue(reason: "expected a whole number")
    }
    guard range.contains(value) else {
      throw InvalidValue(reason: "expected a number from \(range.lowerBound) to \(range.upperBound)")
    }
    return value
  }

  /// `yes/no`, `true/false`, `on/off` or `1/0`, in any case.
  public static func boolean(_ text: String) throws(InvalidValue) -> Bool {
    switch text.lowercased() {
    case "yes", "true", "on", "1": return true
    case "no", "false", "off", "0": return false
    default: throw InvalidValue(reason: "expected yes or no")
    }
  }
}
