import BadgeCore

/// A JSON object written one member at a time, in the order given, as one line.
///
/// The formats that speak JSON (Waybar, i3blocks, eww, frames, and `badgectl`'s
/// `--format json`) need only objects of strings, numbers, booleans, string arrays and (for
/// statistics) arrays of such objects;
/// writing them by hand keeps Foundation out.
public struct JSONObject: Sendable {
  private var members: [String] = []

  public init() {}

  /// Adds a string member.
  public mutating func add(_ key: String, _ value: String) {
    members.append(JSONObject.quoted(key) + ":" + JSONObject.quoted(value))
  }

  /// Adds an integer member.
  public mutating func add(_ key: String, _ value: Int) {
    members.append(JSONObject.quoted(key) + ":" + String(value))
  }

  /// Adds an unsigned integer member (sequence numbers).
  public mutating func add(_ key: String, _ value: UInt64) {
    members.append(JSONObject.quoted(key) + ":" + String(value))
  }

  /// Adds a number member with six decimals, so every frame's values read alike.
  public mutating func add(_ key: String, _ value: Double) {
    members.append(JSONObject.quoted(key) + ":" + DecimalFormat.fixed(value))
  }

  /// Adds a boolean member.
  public mutating func add(_ key: String, _ value: Bool) {
    members.append(JSONObject.quoted(key) + ":" + (value ? "true" : "false"))
  }

  /// Adds an array of strings.
  public mutating func add(_ key: String, _ values: [String]) {
    let items = values.map(JSONObject.quoted).joined(separator: ",")
    members.append(JSONObject.quoted(key) + ":[" + items + "]")
  }

  /// Adds an object (badged-web's `dnd` in a snapshot).
  public mutating func add(_ key: String, object: JSONObject) {
    members.append(JSONObject.quoted(key) + ":" + object.text)
  }

  /// Adds an array of objects.
  public mutating func add(_ key: String, objects: [JSONObject]) {
    members.append(JSONObject.quoted(key) + ":[" + objects.map(\.text).joined(separator: ",") + "]")
  }

  /// The object as one line, without a line end.
  public var text: String { "{" + members.joined(separator: ",") + "}" }

  /// `text` as a JSON string literal: quotes, backslashes and control characters escaped.
  public static func quoted(_ text: String) -> String { JSONString.quoted(text) }
}
