import BadgeConfig
import BadgeSources

/// Entries as the INI reader hands them out, from a config's text: `[section]` lines, `key =
/// value` lines, each entry with its line number (blank lines count, as in a file).
func entries(_ text: String) -> [ConfigEntry] {
  var section = ""
  var result: [ConfigEntry] = []
  for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
    let line = trimmed(line)
    if line.hasPrefix("[") && line.hasSuffix("]") {
      section = String(line.dropFirst().dropLast())
    } else if let equals = line.firstIndex(of: "=") {
      let key = trimmed(line[..<equals])
      let value = trimmed(line[line.index(after: equals)...])
      result.append(ConfigEntry(section: section, key: key, value: value, line: index + 1))
    }
  }
  return result
}

/// The config `text` makes.
func sources(_ text: String) throws(ConfigError) -> SourcesConfig {
  try SourcesConfig.parse(entries(text), file: "badged.conf")
}

/// The message `text` is refused with, `nil` when it is accepted.
func refusal(_ text: String) -> String? {
  do {
    _ = try sources(text)
    return nil
  } catch {
    return error.description
  }
}

/// `text` without the spaces and tabs around it.
private func trimmed(_ text: Substring) -> String {
  var text = text
  while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
  while let last = text.last, last == " " || last == "\t" { text.removeLast() }
  return String(text)
}
