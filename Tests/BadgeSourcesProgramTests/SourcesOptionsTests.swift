import BadgeLog
import BadgeOptions
import BadgeSourcesProgram
import Foundation
import Glibc
import Testing

/// badged-sources' command line (`ClientOptions`, badged-mqtt's too), every flag in both forms
/// and every way a line is wrong; and what the program makes of the config a line names.
@Suite struct SourcesOptionsTests {
  static func failure(_ arguments: [String]) -> String? {
    do {
      _ = try ClientOptions.parse(arguments)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func eachOptionInEitherForm() throws {
    #expect(try ClientOptions.parse([]) == .run(ClientOptions()))
    #expect(
      try ClientOptions.parse(["--socket", "/run/b.sock", "--config=/c/badged.conf", "--log-level", "debug"])
        == .run(ClientOptions(socketPath: "/run/b.sock", configFile: "/c/badged.conf", logLevel: .debug)))
    #expect(
      try ClientOptions.parse(["--socket=/s", "--config", "/c", "--log-level=3"])
        == .run(ClientOptions(socketPath: "/s", configFile: "/c", logLevel: .error)))
  }

  @Test func helpAndVersionWinWhereverTheyStand() throws {
    #expect(try ClientOptions.parse(["--help"]) == .help)
    #expect(try ClientOptions.parse(["-h"]) == .help)
    #expect(try ClientOptions.parse(["--socket", "/s", "--help", "--bogus"]) == .help)
    #expect(try ClientOptions.parse(["--version", "extra"]) == .version)
    #expect(SourcesOptions.help.contains("USAGE: \(SourcesOptions.usage)\n"))
    #expect(SourcesOptions.usage == "badged-sources [--socket <path>] [--config <file>] [--log-level <level>]")
  }

  @Test(arguments: [
    (["--state-dir", "/x"], "Unknown option '--state-dir'"), (["-v"], "Unknown option '-v'"),
    (["mail"], "Unexpected argument 'mail'"), (["--socket"], "Missing value for '--socket'"),
    (["--config", "--socket", "/s"], "Missing value for '--config'"), (["--config="], "Empty value for '--config'"),
    (
      ["--log-level", "loud"],
      "Invalid log level 'loud'; expected one of emerg, alert, crit, err, warning, notice, "
        + "info, debug"
    ),
  ])
  func aWrongLineSaysWhatIsWrong(arguments: [String], message: String) {
    #expect(Self.failure(arguments) == message)
  }

  @Test func aWrongLineExits64() {
    #expect(SourcesProgram.main(["--bogus"]) == 64)
  }

  @Test func aConfigIsReadAndItsFirstFaultRefusedWith78() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let good = folder + "/good.conf"
    try "[daemon]\npulse_ms = 100\n\n[source.mail]\nkind = maildir\npath = /tmp/Mail\n".write(
      toFile: good, atomically: false, encoding: .utf8)
    // A config it can use runs until SIGTERM: SourcesProgramTests runs the built program on one.
    #expect(try SourcesProgram.loadConfig(path: good).sources.map(\.name) == ["mail"])

    let bad = folder + "/bad.conf"
    try "[source.mail]\nkind = maildir\npath = /tmp/Mail\nfodlers = INBOX\n".write(
      toFile: bad, atomically: false, encoding: .utf8)
    #expect(SourcesProgram.main(["--config", bad, "--log-level", "emerg"]) == 78)
    #expect(throws: (any Error).self) { try SourcesProgram.loadConfig(path: bad) }
    do {
      _ = try SourcesProgram.loadConfig(path: bad)
    } catch {
      #expect("\(error)".hasPrefix("\(bad):4: Unknown key 'fodlers' in [source.mail]"), "\(error)")
    }
    #expect(SourcesProgram.main(["--config", folder + "/none.conf", "--log-level", "emerg"]) == 78)
  }

  /// A new folder under /tmp, which the caller removes.
  static func folder() throws -> String {
    var template = Array("/tmp/badged-sources-test.XXXXXX".utf8CString)
    guard let raw = mkdtemp(&template) else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    return String(cString: raw)
  }
}
