/// One setting's fields and rules, its value type hidden: what `SettingKey` forwards to, so that
/// code handling every setting alike needs no switch over the settings.
protocol SettingField: Sendable {
  var form: PlainSettingValue.Form { get }
  func parse(_ text: String, into override: inout SettingsOverride) throws(SettingKey.InvalidValue)
  func parse(_ text: String, into settings: inout ChannelSettings) throws(SettingKey.InvalidValue)
  func reset(in override: inout SettingsOverride)
  func put(_ top: SettingsOverride, over override: inout SettingsOverride)
  func apply(_ override: SettingsOverride, to settings: inout ChannelSettings)
  func format(_ settings: ChannelSettings) -> String
  func plain(in override: SettingsOverride) -> PlainSettingValue?
  func restore(_ plain: PlainSettingValue, into override: inout SettingsOverride) -> Bool
}

/// A setting whose value is a `Value`: its field in `SettingsOverride`, its field in
/// `ChannelSettings`, and its parser.
struct Field<Value: SettingValue>: SettingField {
  let overridden: WritableKeyPath<SettingsOverride, Value?> & Sendable
  /// The value in force; `nil` for a setting that may be absent (`export`).
  let inForce: @Sendable (ChannelSettings) -> Value?
  let putInForce: @Sendable (inout ChannelSettings, Value) -> Void
  let parseValue: @Sendable (String) throws(SettingKey.InvalidValue) -> Value

  /// A setting that always has a value.
  init(
    _ inForce: WritableKeyPath<ChannelSettings, Value> & Sendable,
    _ overridden: WritableKeyPath<SettingsOverride, Value?> & Sendable,
    parse: @escaping @Sendable (String) throws(SettingKey.InvalidValue) -> Value
  ) {
    self.init(overridden, inForce: { $0[keyPath: inForce] }, putInForce: { $0[keyPath: inForce] = $1 }, parse: parse)
  }

  /// A setting that may have no value in force (`export`: not exported); an override can set a
  /// value, not take one away.
  init(
    _ inForce: WritableKeyPath<ChannelSettings, Value?> & Sendable,
    _ overridden: WritableKeyPath<SettingsOverride, Value?> & Sendable,
    parse: @escaping @Sendable (String) throws(SettingKey.InvalidValue) -> Value
  ) {
    self.init(overridden, inForce: { $0[keyPath: inForce] }, putInForce: { $0[keyPath: inForce] = $1 }, parse: parse)
  }

  private init(
    _ overridden: WritableKeyPath<SettingsOverride, Value?> & Sendable,
    inForce: @escaping @Sendable (ChannelSettings) -> Value?,
    putInForce: @escaping @Sendable (inout ChannelSettings, Value) -> Void,
    parse: @escaping @Sendable (String) throws(SettingKey.InvalidValue) -> Value
  ) {
    self.overridden = overridden
    self.inForce = inForce
    self.putInForce = putInForce
    self.parseValue = parse
  }

  var form: PlainSettingValue.Form { Value.form }

  func parse(_ text: String, into override: inout SettingsOverride) throws(SettingKey.InvalidValue) {
    override[keyPath: overridden] = try parseValue(text)
  }

  func parse(_ text: String, into settings: inout ChannelSettings) throws(SettingKey.InvalidValue) {
    putInForce(&settings, try parseValue(text))
  }

  func reset(in override: inout SettingsOverride) {
    override[keyPath: overridden] = nil
  }

  func put(_ top: SettingsOverride, over override: inout SettingsOverride) {
    if let value = top[keyPath: overridden] { override[keyPath: overridden] = value }
  }

  func apply(_ override: SettingsOverride, to settings: inout ChannelSettings) {
    if let value = override[keyPath: overridden] { putInForce(&settings, value) }
  }

  func format(_ settings: ChannelSettings) -> String {
    inForce(settings)?.text ?? ""
  }

  func plain(in override: SettingsOverride) -> PlainSettingValue? {
    override[keyPath: overridden]?.plain
  }

  /// Sets the value `plain` stands for when the setting's own parser accepts it as written, so a
  /// record can hold nothing the config file or `CONFIGURE` would refuse.
  func restore(_ plain: PlainSettingValue, into override: inout SettingsOverride) -> Bool {
    guard let value = Value(plain: plain), (try? parseValue(value.text)) == value else { return false }
    override[keyPath: overridden] = value
    return true
  }
}
