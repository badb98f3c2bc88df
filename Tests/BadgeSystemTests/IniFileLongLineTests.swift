import BadgeConfig
import BadgeCore
import BadgeSystem
import Testing

/// Lines longer than libinih's buffer (200 bytes with the NUL, so 199 bytes before the LF).
@Suite struct IniFileLongLineTests {
  static func read(_ text: String) throws -> Result<[ConfigEntry], ConfigError> {
    try TemporaryFolder.with { folder in
      let path = try folder.write("long.conf", text)
      do throws(ConfigError) {
        return .success(try IniFile.read(path: path))
      } catch {
        return .failure(ConfigError(file: "long.conf", line: error.line, reason: error.reason))
      }
    }
  }

  static func tooLong(_ line: Int) -> Result<[ConfigEntry], ConfigError> {
    .failure(ConfigError(file: "long.conf", line: line, reason: "Line is longer than 199 bytes, comments included"))
  }

  @Test func aLineOf199BytesFits() throws {
    let comment = "#" + String(repeating: "x", count: 198)
    #expect(
      try Self.read("[daemon]\n\(comment)\nmax_label = 5\n")
        == .success([
          ConfigEntry(section: "daemon", key: "max_label", value: "5", line: 3)
        ]), "the line after it keeps its number")
    #expect(try Self.read("[daemon]\n\(comment)") == .success([]), "also as the last line, without LF")
  }

  @Test func theTailOfALongCommentIsNotReadAsAnEntry() throws {
    // fgets stops after 199 bytes, here right before 'pulse_ms = 10'.
    let comment = "# " + String(repeating: "x", count: 197)
    #expect(try Self.read("[daemon]\n\(comment)pulse_ms = 10\n") == Self.tooLong(2))
  }

  @Test func aLongLineIsRefusedAtItsOwnLine() throws {
    let long = "max_label = " + String(repeating: "9", count: 300)
    #expect(try Self.read("[daemon]\n\(long)\npulse_ms = 5\n") == Self.tooLong(2))
    #expect(try Self.read("[daemon]\npulse_ms = 5\n\n\(long)") == Self.tooLong(4), "as the last line, without LF")
    #expect(try Self.read("[daemon]\n\(long)\n\(long)\n") == Self.tooLong(2), "the first one is reported")
  }

  @Test func theFirstProblemInTheFileIsReported() throws {
    let long = "#" + String(repeating: "-", count: 250)
    #expect(try Self.read("[daemon]\n\(long)\nnot ini\n") == Self.tooLong(2))
    #expect(
      try Self.read("[daemon]\nnot ini\n\(long)\n")
        == .failure(
          ConfigError(file: "long.conf", line: 2, reason: "Expected 'key = value', '[daemon]' or '[channel NAME]'")))
  }
}
