/// A per-channel setting: its key in the config file (`[channel …]` sections) and in the
/// protocol's `CONFIGURE`, where channel records keep it, and (in `visitAll`) its fields in
/// `ChannelSettings` and `SettingsOverride` and its parser.
///
/// Whatever handles the settings one by one goes through `visitAll` or `allCases`: the config
/// parser, `CONFIGURE`'s parser, an override's `isEmpty`, `applied`, `merged` and reset, and the
/// records (BadgePersistence's `SettingFields` and `RecordCodec`). So a new setting is its field in
/// `ChannelSettings` (with its default), its field in `SettingsOverride`, its `static var` here
/// and its line in `visitAll`; a key path to a missing field does not compile. (ARCHITECTURE.md
/// lists what else a setting shown on state lines needs, and the documents that name every
/// setting.)
public struct SettingKey: Sendable, Hashable, CaseIterable, RawRepresentable, CustomStringConvertible {
  /// The key as the config file and `CONFIGURE` write it.
  public let rawValue: String
  /// Where a channel record keeps the setting.
  public let record: RecordPlace
  /// Whether only a section that names one channel may give it: a glob would give one value,
  /// meant for one channel, to many (`export`: many channels announced as one app).
  public let namesOneChannel: Bool

  // Computed and inlinable rather than stored, so that a walk of the settings that reads only a
  // key's record place (the journal's) finds it as a constant, with no lazy global to check.
  @inlinable public static var maxLabel: SettingKey { SettingKey("max_label", record: .fixed(bit: 0)) }
  @inlinable public static var style: SettingKey { SettingKey("style", record: .fixed(bit: 1)) }
  @inlinable public static var pulseMs: SettingKey { SettingKey("pulse_ms", record: .fixed(bit: 2)) }
  @inlinable public static var muted: SettingKey { SettingKey("muted", record: .inFlags(bit: 3, valueBit: 4)) }
  @inlinable public static var badge: SettingKey { SettingKey("badge", record: .fixed(bit: 6)) }
  @inlinable public static var dnd: SettingKey { SettingKey("dnd", record: .fixed(bit: 7)) }
  @inlinable public static var step: SettingKey { SettingKey("step", record: .tagged(1)) }
  @inlinable public static var export: SettingKey {
    SettingKey("export", record: .tagged(2), namesOneChannel: true)
  }

  /// Every setting's fields and parser: the value in force in `ChannelSettings`, the value set
  /// in `SettingsOverride`. The order is `allCases`', the order messages and the documents list
  /// them; the records' writer takes the fixed settings first, by their bits, then the tagged
  /// ones (RecordTests holds it), so a new setting goes at the end.
  @inlinable @inline(__always)
  public static func visitAll(_ visitor: inout some SettingVisitor) {
    visitor.visit(.maxLabel, \.maxLabel, \.maxLabel, parse: number(in: Limits.maxLabel))
    visitor.visit(.style, \.style, \.style, parse: word)
    visitor.visit(.pulseMs, \.pulseMs, \.pulseMs, parse: number(in: Limits.pulseMs))
    visitor.visit(.muted, \.muted, \.muted, parse: boolean)
    visitor.visit(.badge, \.badge, \.badge, parse: word)
    visitor.visit(.dnd, \.dnd, \.dnd, parse: word)
    visitor.visit(.step, \.step, \.step, parse: number(in: Limits.step))
    visitor.visit(.export, \.export, \.export, parse: desktopID)
  }

  /// Every setting, in the order `visitAll` visits them.
  public static let allCases: [SettingKey] = {
    var collecting = CollectingKeys()
    visitAll(&collecting)
    return collecting.keys
  }()

  @usableFromInline
  init(_ rawValue: String, record: RecordPlace, namesOneChannel: Bool = false) {
    self.rawValue = rawValue
    self.record = record
    self.namesOneChannel = namesOneChannel
  }

  /// The setting the config file and `CONFIGURE` call `rawValue`; `nil` for any other word.
  public init?(rawValue: String) {
    guard let key = SettingKey.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
    self = key
  }

  public static func == (a: SettingKey, b: SettingKey) -> Bool { a.rawValue == b.rawValue }
  public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
  public var description: String { rawValue }

  /// Why a value was refused, phrased to follow "Invalid value 'x' for key: ".
  public struct InvalidValue: Error, Equatable, Sendable {
    public let reason: String

    public init(reason: String) { self.reason = reason }
  }

  /// `operation` done on this setting, with `override` and `settings` to work on.
  private func perform(
    _ operation: OneSetting.Operation, override: SettingsOverride = .empty, settings: ChannelSettings = .defaults
  ) -> OneSetting {
    var one = OneSetting(key: self, operation: operation, override: override, settings: settings)
    SettingKey.visitAll(&one)
    return one
  }

  /// Parses `value` for this key into `override`.
  ///
  /// - Throws: `InvalidValue` with a reason when the value is not accepted; `override` is
  ///   unchanged then.
  public func parse(_ value: String, into override: inout SettingsOverride) throws(InvalidValue) {
    let done = perform(.parse(value), override: override)
    if let refusal = done.refusal { throw refusal }
    override = done.override
  }

  /// Parses `value` for this key straight into `settings` (`[daemon]`'s defaults).
  ///
  /// - Throws: `InvalidValue` as `parse(_:into:)` does for an override.
  public func parse(_ value: String, into settings: inout ChannelSettings) throws(InvalidValue) {
    let done = perform(.parseInForce(value), settings: settings)
    if let refusal = done.refusal { throw refusal }
    settings = done.settings
  }

  /// Removes this key from `override`, so that the value beneath applies again.
  public func reset(in override: inout SettingsOverride) {
    override = perform(.reset, override: override).override
  }

  /// The value of this key in `settings`, written the way the config file writes it (empty for
  /// a setting that has none, as `export` of a channel not exported).
  public func format(_ settings: ChannelSettings) -> String {
    perform(.format, settings: settings).text
  }

  /// The form this key's values take in records.
  public var form: PlainSettingValue.Form { perform(.describe).form }

  /// Sets this key in `override` to the value `plain` stands for (a record being read), when
  /// the key's own parser accepts that value as written: a record holds nothing the config
  /// file or `CONFIGURE` would refuse.
  ///
  /// - Returns: `false`, leaving `override` unchanged, when it stands for no value this key
  ///   accepts.
  public func restore(_ plain: PlainSettingValue, into override: inout SettingsOverride) -> Bool {
    let done = perform(.restore(plain), override: override)
    if done.accepted { override = done.override }
    return done.accepted
  }

  // MARK: - Values

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
  /// (which is dropped), at most `Limits.maxDesktopIDLength` bytes without it.
  public static func desktopID(_ text: String) throws(InvalidValue) -> String {
    let id = text.hasSuffix(".desktop") ? String(text.dropLast(".desktop".count)) : text
    guard !id.isEmpty, id.utf8.allSatisfy({ ChannelName.isNameByte($0) && $0 != UInt8(ascii: ":") }) else {
      throw InvalidValue(reason: "expected a desktop id such as org.example.App (A-Z a-z 0-9 . _ -)")
    }
    guard id.utf8.count <= Limits.maxDesktopIDLength else {
      throw InvalidValue(
        reason: "a desktop id is at most \(Limits.maxDesktopIDLength) bytes, this one is \(id.utf8.count)")
    }
    return id
  }

  /// The parser of a whole-number setting: `integer(_:in: range)`. Inlinable, and the range
  /// read only when a value is parsed, so that a walk of the settings that parses nothing (the
  /// journal's) makes no closure and reads no range.
  @inlinable static func number(
    in range: @autoclosure @escaping () -> ClosedRange<Int>
  ) -> (String) throws(InvalidValue) -> Int {
    { text throws(InvalidValue) in try integer(text, in: range()) }
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

  /// Channel names and globs separated by spaces, commas or tabs (`[mqtt]`'s `share` and
  /// `mirror`, `[tray]`'s `items`); none at all is an empty list.
  public static func patterns(_ text: String) throws(InvalidValue) -> [ChannelPattern] {
    var patterns: [ChannelPattern] = []
    for word in text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }) {
      guard let pattern = ChannelPattern(word) else {
        throw InvalidValue(reason: "'\(word)' is not a channel name or glob (\(ChannelName.namingRule), or * and ?)")
      }
      patterns.append(pattern)
    }
    return patterns
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

/// Where a channel record keeps a setting made over the socket (BadgePersistence's
/// `RecordCodec` writes and reads it there).
public enum RecordPlace: Sendable, Equatable {
  /// Among the fixed fields: bit `bit` of the flags byte says the value follows, after the
  /// values of lower bits.
  case fixed(bit: UInt8)
  /// In the flags byte alone: bit `bit` says the setting is set, bit `valueBit` holds it (a yes
  /// or no).
  case inFlags(bit: UInt8, valueBit: UInt8)
  /// After the fixed fields: the tag, then the value. The flags byte is full: every setting
  /// added since takes a tag of its own.
  case tagged(UInt8)
}
