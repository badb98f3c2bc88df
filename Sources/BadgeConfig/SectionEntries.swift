import BadgeCore

/// The reading every program's own section shares (`[tray]`, `[web]`): its entries in file
/// order, each key known to the section's `Key` enum and its value applied, the first fault
/// reported at its line, a key given twice keeping its later value.
public enum SectionEntries {
  /// Applies each entry of `section` with `apply`, and returns the line each key was last
  /// given on, for checks across keys.
  ///
  /// - Throws: `ConfigError` for an unknown key (the message lists the section's keys) or a
  ///   value `apply` refuses (`Invalid value '…' for key: reason`).
  public static func apply<Key>(
    _ entries: [ConfigEntry], section: String, file: String,
    _ apply: (Key, String) throws(SettingKey.InvalidValue) -> Void
  ) throws(ConfigError) -> [Key: Int]
  where Key: RawRepresentable & CaseIterable & Hashable, Key.RawValue == String {
    var lines: [Key: Int] = [:]
    for entry in entries where entry.section == section {
      func fail(_ reason: String) -> ConfigError { ConfigError(file: file, line: entry.line, reason: reason) }
      guard let key = Key(rawValue: entry.key) else {
        throw fail(
          "Unknown key '\(entry.key)' in [\(section)]; expected one of "
            + Key.allCases.map(\.rawValue).joined(separator: ", "))
      }
      do throws(SettingKey.InvalidValue) {
        try apply(key, entry.value)
      } catch {
        throw fail("Invalid value '\(entry.value)' for \(entry.key): \(error.reason)")
      }
      lines[key] = entry.line
    }
    return lines
  }
}
