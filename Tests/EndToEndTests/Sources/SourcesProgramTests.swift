import Foundation
import Testing

/// The built `badged-sources` where no daemon is needed: its command line, a config it cannot
/// use refused at start with its place and exit status 78, and one it can use run until
/// SIGTERM.
@Suite struct SourcesProgramTests {
  @Test func helpVersionAndAWrongCommandLine() throws {
    try Binaries.check()
    let help = try run(Binaries.badgedSources.path, ["--help"])
    #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW: Keeps badged's channels equal to what they count"))
    #expect(help.stdout.contains("USAGE: badged-sources [--socket <path>] [--config <file>] [--log-level <level>]\n"))
    let version = try run(Binaries.badgedSources.path, ["--version"])
    #expect(version.status == 0 && version.stdout == "badged-sources 0.1.0\n")
    let wrong = try run(Binaries.badgedSources.path, ["--socket"])
    #expect(wrong.status == 64)
    #expect(
      wrong.stderr
        == "Error: Missing value for '--socket'\nUsage: badged-sources [--socket <path>] [--config <file>] "
        + "[--log-level <level>]\n  See 'badged-sources --help' for more information.\n")
  }

  @Test func aConfigItCannotUseIsRefusedAtStartWithItsPlace() throws {
    try Binaries.check()
    let folder = try TemporaryFolder()
    let missing = try run(Binaries.badgedSources.path, ["--config", folder.file("none.conf")])
    #expect(missing.status == 78)
    #expect(
      missing.stderr
        == "<3>Failed to load configuration: \(folder.file("none.conf")): Failed to open: No such file or directory\n")
    let twoOwners = try folder.write(
      "badged.conf",
      """
      [daemon]
      pulse_ms = 100

      [source.inbox]
      kind = maildir
      path = ~/Mail
      channel = mail

      [source.lists]
      kind = notmuch
      channel = mail
      """)
    let refused = try run(Binaries.badgedSources.path, ["--config", twoOwners])
    #expect(refused.status == 78)
    #expect(
      refused.stderr.hasPrefix("<3>Failed to load configuration: \(twoOwners):11: Channel 'mail' of "),
      "\(refused.stderr)")
    // A config it can use: it runs (no daemon there yet) until SIGTERM, and exits 0.
    let good = try folder.write("good.conf", "[source.mail]\nkind = maildir\npath = ~/Mail\n")
    let running = try SourcesProcess(
      folder: folder, config: good, socket: folder.file("no-daemon.sock"), arguments: [])
    #expect(waitUntil { running.log.contains("<6>Running 1 sources from \(good)") }, "\(running.log)")
    #expect(running.stop() == 0)
    #expect(running.log.contains("<6>Source 'mail': maildir (\(good):2).\n"), "\(running.log)")
  }
}
