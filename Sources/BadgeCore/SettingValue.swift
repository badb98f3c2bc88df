/// A type a channel setting holds.
///
/// Every setting's value takes one of a few plain forms (`PlainSettingValue`): code that handles
/// every setting alike, such as the records, works on those forms and never on the types.
protocol SettingValue: Equatable, Sendable {
  /// The form every value of the type takes.
  static var form: PlainSettingValue.Form { get }
  /// The value in its plain form.
  var plain: PlainSettingValue { get }
  /// The value a plain form stands for; `nil` when it stands for none of this type.
  init?(plain: PlainSettingValue)
  /// The value as the config file writes it (`SettingKey.format`).
  var text: String { get }
}

/// A setting's value in one of the forms settings take.
public enum PlainSettingValue: Equatable, Sendable {
  /// A whole number, 0 or more.
  case number(Int)
  /// One word of an enumeration, by its place among the enumeration's cases.
  case choice(Int)
  case yesNo(Bool)
  case text(String)

  /// Which of the forms a value takes.
  public enum Form: Sendable {
    case number, choice, yesNo, text
  }
}

extension Int: SettingValue {
  static var form: PlainSettingValue.Form { .number }
  var plain: PlainSettingValue { .number(self) }
  init?(plain: PlainSettingValue) {
    guard case .number(let value) = plain else { return nil }
    self = value
  }
  var text: String { String(self) }
}

extension Bool: SettingValue {
  static var form: PlainSettingValue.Form { .yesNo }
  var plain: PlainSettingValue { .yesNo(self) }
  init?(plain: PlainSettingValue) {
    guard case .yesNo(let value) = plain else { return nil }
    self = value
  }
  var text: String { self ? "yes" : "no" }
}

extension String: SettingValue {
  static var form: PlainSettingValue.Form { .text }
  var plain: PlainSettingValue { .text(self) }
  init?(plain: PlainSettingValue) {
    guard case .text(let value) = plain else { return nil }
    self = value
  }
  var text: String { self }
}

/// A setting whose value is one of the words of an enumeration (`style`, `badge`, `dnd`): the
/// word is its raw value, and its plain form its place among the cases.
protocol SettingWord: SettingValue, RawRepresentable, CaseIterable where RawValue == String {}

extension SettingWord {
  static var form: PlainSettingValue.Form { .choice }
  var plain: PlainSettingValue { .choice(Array(Self.allCases).firstIndex(of: self)!) }
  init?(plain: PlainSettingValue) {
    let cases = Array(Self.allCases)
    guard case .choice(let place) = plain, cases.indices.contains(place) else { return nil }
    self = cases[place]
  }
  var text: String { rawValue }
}

extension ChannelStyle: SettingWord {}
extension BadgeCounts: SettingWord {}
extension DNDPolicy: SettingWord {}
