/// A type a channel setting holds.
///
/// Every setting's value takes one of a few plain forms (`PlainSettingValue`): code that handles
/// every setting alike, such as the records, works on those forms and never on the types. The
/// requirements' names say they are about settings, since `Int`, `Bool` and `String` conform.
public protocol SettingValue: Equatable, Sendable {
  /// The form every value of the type takes.
  static var plainSettingForm: PlainSettingValue.Form { get }
  /// The value in its plain form.
  var plainSettingValue: PlainSettingValue { get }
  /// The value a plain form stands for; `nil` when it stands for none of this type.
  init?(plainSettingValue: PlainSettingValue)
  /// The value as the config file writes it (`SettingKey.format`).
  var settingText: String { get }
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
  public static var plainSettingForm: PlainSettingValue.Form { .number }
  @inlinable public var plainSettingValue: PlainSettingValue { .number(self) }
  public init?(plainSettingValue plain: PlainSettingValue) {
    guard case .number(let value) = plain else { return nil }
    self = value
  }
  public var settingText: String { String(self) }
}

extension Bool: SettingValue {
  public static var plainSettingForm: PlainSettingValue.Form { .yesNo }
  @inlinable public var plainSettingValue: PlainSettingValue { .yesNo(self) }
  public init?(plainSettingValue plain: PlainSettingValue) {
    guard case .yesNo(let value) = plain else { return nil }
    self = value
  }
  public var settingText: String { self ? "yes" : "no" }
}

extension String: SettingValue {
  public static var plainSettingForm: PlainSettingValue.Form { .text }
  @inlinable public var plainSettingValue: PlainSettingValue { .text(self) }
  public init?(plainSettingValue plain: PlainSettingValue) {
    guard case .text(let value) = plain else { return nil }
    self = value
  }
  public var settingText: String { self }
}

/// A setting whose value is one of the words of an enumeration (`style`, `badge`, `dnd`): the
/// word is its raw value, and its plain form its place among the cases.
public protocol SettingWord: SettingValue, RawRepresentable, CaseIterable where RawValue == String {}

extension SettingWord {
  public static var plainSettingForm: PlainSettingValue.Form { .choice }
  @inlinable public var plainSettingValue: PlainSettingValue {
    .choice(Self.allCases.distance(from: Self.allCases.startIndex, to: Self.allCases.firstIndex(of: self)!))
  }
  public init?(plainSettingValue plain: PlainSettingValue) {
    let cases = Array(Self.allCases)
    guard case .choice(let place) = plain, cases.indices.contains(place) else { return nil }
    self = cases[place]
  }
  public var settingText: String { rawValue }
}

extension ChannelStyle: SettingWord {}
extension BadgeCounts: SettingWord {}
extension DNDPolicy: SettingWord {}
