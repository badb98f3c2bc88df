/// What walks the settings: `SettingKey.visitAll` calls `visit` once a setting, in `allCases`
/// order, with its key, its field in `SettingsOverride`, its value in force and its parser.
///
/// `visitAll` and every `visit` are inlined, so each key path is applied where it is written and
/// reaches its field directly; a key path kept in a variable would be walked at run time, at
/// the cost of a lookup of generic metadata on every access. `visitAll` is inlinable, so a
/// visitor in another module (the records' writer) is inlined the same way.
public protocol SettingVisitor {
  mutating func visit<Value: SettingValue>(
    _ key: SettingKey, _ overridden: WritableKeyPath<SettingsOverride, Value?>,
    inForce: (ChannelSettings) -> Value?, putInForce: (inout ChannelSettings, Value) -> Void,
    parse: (String) throws(SettingKey.InvalidValue) -> Value)
}

extension SettingVisitor {
  /// A setting that always has a value.
  @inlinable @inline(__always)
  mutating func visit<Value: SettingValue>(
    _ key: SettingKey, _ inForce: WritableKeyPath<ChannelSettings, Value>,
    _ overridden: WritableKeyPath<SettingsOverride, Value?>,
    parse: (String) throws(SettingKey.InvalidValue) -> Value
  ) {
    visit(key, overridden, inForce: { $0[keyPath: inForce] }, putInForce: { $0[keyPath: inForce] = $1 }, parse: parse)
  }

  /// A setting that may have no value in force (`export`: not exported); an override can set a
  /// value, not take one away.
  @inlinable @inline(__always)
  mutating func visit<Value: SettingValue>(
    _ key: SettingKey, _ inForce: WritableKeyPath<ChannelSettings, Value?>,
    _ overridden: WritableKeyPath<SettingsOverride, Value?>,
    parse: (String) throws(SettingKey.InvalidValue) -> Value
  ) {
    visit(key, overridden, inForce: { $0[keyPath: inForce] }, putInForce: { $0[keyPath: inForce] = $1 }, parse: parse)
  }
}

/// Every key, in the order `visitAll` visits them (`SettingKey.allCases`).
struct CollectingKeys: SettingVisitor {
  var keys: [SettingKey] = []

  @inline(__always)
  mutating func visit<Value: SettingValue>(
    _ key: SettingKey, _ overridden: WritableKeyPath<SettingsOverride, Value?>,
    inForce: (ChannelSettings) -> Value?, putInForce: (inout ChannelSettings, Value) -> Void,
    parse: (String) throws(SettingKey.InvalidValue) -> Value
  ) {
    keys.append(key)
  }
}

/// Whether an override sets any setting (`SettingsOverride.isEmpty`).
struct FindingSet: SettingVisitor {
  let override: SettingsOverride
  var found = false

  @inline(__always)
  mutating func visit<Value: SettingValue>(
    _ key: SettingKey, _ overridden: WritableKeyPath<SettingsOverride, Value?>,
    inForce: (ChannelSettings) -> Value?, putInForce: (inout ChannelSettings, Value) -> Void,
    parse: (String) throws(SettingKey.InvalidValue) -> Value
  ) {
    if override[keyPath: overridden] != nil { found = true }
  }
}

/// The settings an override sets, put over settings in force (`SettingsOverride.applied`).
struct Applying: SettingVisitor {
  let override: SettingsOverride
  var settings: ChannelSettings

  @inline(__always)
  mutating func visit<Value: SettingValue>(
    _ key: SettingKey, _ overridden: WritableKeyPath<SettingsOverride, Value?>,
    inForce: (ChannelSettings) -> Value?, putInForce: (inout ChannelSettings, Value) -> Void,
    parse: (String) throws(SettingKey.InvalidValue) -> Value
  ) {
    if let value = override[keyPath: overridden] { putInForce(&settings, value) }
  }
}

/// The settings one override sets, put over another (`SettingsOverride.merged`).
struct Merging: SettingVisitor {
  let top: SettingsOverride
  var merged: SettingsOverride

  @inline(__always)
  mutating func visit<Value: SettingValue>(
    _ key: SettingKey, _ overridden: WritableKeyPath<SettingsOverride, Value?>,
    inForce: (ChannelSettings) -> Value?, putInForce: (inout ChannelSettings, Value) -> Void,
    parse: (String) throws(SettingKey.InvalidValue) -> Value
  ) {
    if let value = top[keyPath: overridden] { merged[keyPath: overridden] = value }
  }
}

/// The settings an override sets, each with its plain value (`SettingsOverride.values`).
struct ListingValues: SettingVisitor {
  let override: SettingsOverride
  var values: [(key: SettingKey, value: PlainSettingValue)] = []

  @inline(__always)
  mutating func visit<Value: SettingValue>(
    _ key: SettingKey, _ overridden: WritableKeyPath<SettingsOverride, Value?>,
    inForce: (ChannelSettings) -> Value?, putInForce: (inout ChannelSettings, Value) -> Void,
    parse: (String) throws(SettingKey.InvalidValue) -> Value
  ) {
    if let value = override[keyPath: overridden] { values.append((key, value.plainSettingValue)) }
  }
}

/// One operation on one setting, every other left alone: what `SettingKey` does for a key.
struct OneSetting: SettingVisitor {
  enum Operation {
    /// Parses the text into `override`, or keeps the reason in `refusal`.
    case parse(String)
    /// Parses the text into `settings`, or keeps the reason in `refusal`.
    case parseInForce(String)
    /// Drops the setting from `override`.
    case reset
    /// Puts the value in force in `settings` into `text`, as the config file writes it.
    case format
    /// Sets the value a plain form stands for in `override` when the setting's parser accepts it
    /// as written (`accepted`).
    case restore(PlainSettingValue)
    /// Only finds the setting's `form`.
    case describe
  }

  let key: SettingKey
  let operation: Operation
  var override = SettingsOverride.empty
  var settings = ChannelSettings.defaults
  var refusal: SettingKey.InvalidValue?
  var text = ""
  var accepted = false
  var form = PlainSettingValue.Form.number

  @inline(__always)
  mutating func visit<Value: SettingValue>(
    _ key: SettingKey, _ overridden: WritableKeyPath<SettingsOverride, Value?>,
    inForce: (ChannelSettings) -> Value?, putInForce: (inout ChannelSettings, Value) -> Void,
    parse: (String) throws(SettingKey.InvalidValue) -> Value
  ) {
    guard key == self.key else { return }
    form = Value.plainSettingForm
    switch operation {
    case .parse(let text):
      do { override[keyPath: overridden] = try parse(text) } catch { refusal = error }
    case .parseInForce(let text):
      do { putInForce(&settings, try parse(text)) } catch { refusal = error }
    case .reset:
      override[keyPath: overridden] = nil
    case .format:
      text = inForce(settings)?.settingText ?? ""
    case .restore(let plain):
      guard let value = Value(plainSettingValue: plain), (try? parse(value.settingText)) == value else { return }
      override[keyPath: overridden] = value
      accepted = true
    case .describe:
      break
    }
  }
}
