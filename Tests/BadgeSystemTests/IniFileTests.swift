import BadgeConfig
import BadgeSystem
import Glibc
import Testing

@testable import BadgeCore

/// Reading real files with libinih, then `DaemonConfig.parse` on what it read.
@Suite struct IniFileTests {
  static let expected = "Expected 'key = value', '[daemon]' or '[channel NAME]'"

  static let example = """
    # badged.conf

    [daemon]
    pulse_ms = 1500
    ; a comment
    max_label=9

    [channel mail]
    style = dot ; why: a dot is enough
    muted=yes
    [channel app:*]
      pulse_ms   =   0

    """

  static let exampleEntries = [
    ConfigEntry(section: "daemon", key: "pulse_ms", value: "1500", line: 4),
    ConfigEntry(section: "daemon", key: "max_label", value: "9", line: 6),
    ConfigEntry(section: "channel mail", key: "style", value: "dot", line: 9),
    ConfigEntry(section: "channel mail", key: "muted", value: "yes", line: 10),
    ConfigEntry(section: "channel app:*", key: "pulse_ms", value: "0", line: 12),
  ]

  @Test func entriesCarryTheirLineNumbers() throws {
    try TemporaryFolder.with { folder in
      let path = try folder.write("badged.conf", Self.example)
      #expect(try IniFile.read(path: path) == Self.exampleEntries)
    }
  }

  @Test func crLFFilesReadTheSame() throws {
    try TemporaryFolder.with { folder in
      let path = try folder.write("crlf.conf", Self.example.replacingOccurrences(of: "\n", with: "\r\n"))
      #expect(try IniFile.read(path: path) == Self.exampleEntries)
    }
  }

  @Test func aByteOrderMarkIsSkipped() throws {
    try TemporaryFolder.with { folder in
      let path = try folder.write("bom.conf", "\u{FEFF}[daemon]\npulse_ms = 1\n")
      #expect(try IniFile.read(path: path) == [ConfigEntry(section: "daemon", key: "pulse_ms", value: "1", line: 2)])
    }
  }

  @Test func emptyAndCommentOnlyFilesHaveNoEntries() throws {
    try TemporaryFolder.with { folder in
      let empty = try folder.write("empty.conf", "")
      let comments = try folder.write("comments.conf", "# one\n; two\n\n[daemon]\n")
      #expect(try IniFile.read(path: empty).isEmpty)
      #expect(try IniFile.read(path: comments).isEmpty)
    }
  }

  @Test func aLastLineWithoutNewlineIsRead() throws {
    try TemporaryFolder.with { folder in
      let path = try folder.write("nonl.conf", "[daemon]\nmax_label = 5")
      #expect(try IniFile.read(path: path) == [ConfigEntry(section: "daemon", key: "max_label", value: "5", line: 2)])
    }
  }

  @Test(arguments: [
    ("[daemon]\npulse_ms = 5\nthis is not ini\nmax_label = 3\n", 3),
    ("[daemon\npulse_ms = 5\n", 1),
    ("# fine\n\n[daemon]\nkey value\n", 4),
    ("[daemon]\nok = 1\nnope\nalso nope\n", 3),
  ])
  func syntaxErrorsNameTheirLine(_ text: String, _ line: Int) throws {
    try TemporaryFolder.with { folder in
      let path = try folder.write("bad.conf", text)
      #expect(throws: ConfigError(file: path, line: line, reason: Self.expected)) { try IniFile.read(path: path) }
    }
  }

  @Test func aMissingFileIsAnErrorWithoutALine() throws {
    try TemporaryFolder.with { folder in
      let path = folder.file("missing.conf")
      #expect(throws: ConfigError(file: path, line: 0, reason: "Failed to open: No such file or directory")) {
        try IniFile.read(path: path)
      }
      do throws(ConfigError) {
        _ = try IniFile.read(path: path)
      } catch {
        #expect(error.description == "\(path): Failed to open: No such file or directory")
      }
    }
  }

  @Test func aFolderIsRefusedNotReadAsAnEmptyConfig() throws {
    try TemporaryFolder.with { folder in
      #expect(throws: ConfigError(file: folder.path, line: 0, reason: "Not a regular file")) {
        try IniFile.read(path: folder.path)
      }
    }
  }

  @Test func aFIFOIsRefusedAtOnceWithoutWaitingForAWriter() throws {
    try TemporaryFolder.with { folder in
      let path = folder.file("badged.conf")
      #expect(mkfifo(path, 0o600) == 0)
      // A blocking open would wait here for a writer forever.
      #expect(throws: ConfigError(file: path, line: 0, reason: "Not a regular file")) {
        try IniFile.read(path: path)
      }
    }
  }

  @Test func aNULInsideALineIsRefusedAtItsLine() throws {
    try TemporaryFolder.with { folder in
      // C strings would read 'pulse_ms = 5\0' + '000' as 5.
      let path = try folder.write("badged.conf", "[daemon]\nmax_label = 9\npulse_ms = 5\u{0}000\n")
      #expect(throws: ConfigError(file: path, line: 3, reason: "Line holds a NUL byte")) {
        try IniFile.read(path: path)
      }
      _ = try folder.write("badged.conf", "[daemon]\n# a comment \u{0} too\n")
      #expect(throws: ConfigError(file: path, line: 2, reason: "Line holds a NUL byte")) {
        try IniFile.read(path: path)
      }
    }
  }

  @Test func aReadFileParsesIntoAConfig() throws {
    try TemporaryFolder.with { folder in
      let path = try folder.write("badged.conf", Self.example)
      let config = try DaemonConfig.parse(IniFile.read(path: path), file: path)
      #expect(config.defaults == ChannelSettings(maxLabel: 9, style: .count, pulseMs: 1500, muted: false))
      let mail = config.settings(for: ChannelName("mail")!)
      #expect(mail.settings == ChannelSettings(maxLabel: 9, style: .dot, pulseMs: 1500, muted: true))
      #expect(config.settings(for: ChannelName("app:chat")!).settings.pulseMs == 0)
      #expect(!config.settings(for: ChannelName("news")!).matched)
    }
  }

  @Test func aBadValueIsReportedAtItsLineInTheFile() throws {
    try TemporaryFolder.with { folder in
      let path = try folder.write("badged.conf", "[daemon]\n\n# note\npulse_ms = soon\n")
      #expect(
        throws: ConfigError(file: path, line: 4, reason: "Invalid value 'soon' for pulse_ms: expected a whole number")
      ) {
        try DaemonConfig.parse(IniFile.read(path: path), file: path)
      }
    }
  }

  @Test func anUnknownSectionIsReportedAtItsFirstKey() throws {
    try TemporaryFolder.with { folder in
      let path = try folder.write("badged.conf", "[daemon]\nmax_label = 5\n[colours]\n\nmail = red\n")
      do throws(ConfigError) {
        _ = try DaemonConfig.parse(IniFile.read(path: path), file: path)
        Issue.record("accepted an unknown section")
      } catch {
        #expect(
          error.description
            == "\(path):5: Unknown section [colours]; expected [daemon], [limits], [bridge], [notifications], "
            + "[mqtt], [tray], [web] or [channel NAME]"
        )
      }
    }
  }
}
