import BadgeConfig
import BadgeCore
import BadgeSystem
import Foundation
import TestSupport
import Testing

/// Inputs the config fuzz target (Tests/Fuzz/FuzzConfig) found, kept as regressions. Each is
/// also in the fuzz target's seed corpus (Tests/Fuzz/corpus/config/).
@Suite struct IniFileFuzzFindingsTests {
  /// A NUL byte inside a line longer than inih's buffer hid where the line ended: the rest of
  /// the line was read as lines of its own, and the error named a line past the end of the
  /// file (line 2 of this one-line file).
  @Test func aNULInALongLineIsReportedAtThatLine() throws {
    let path = Repository.path("Tests/Fuzz/corpus/config/crash-nul-in-long-line")
    let bytes = try #require(FileManager.default.contents(atPath: path))
    #expect(bytes.count == 200 && !bytes.contains(0x0A) && bytes.contains(0))
    do throws(ConfigError) {
      _ = try IniFile.read(path: path)
      Issue.record("a line with a NUL byte was accepted")
    } catch {
      #expect(error.line == 1, "\(error)")
    }
  }
}
