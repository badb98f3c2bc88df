import Foundation
import Testing

/// `badgectl` loads neither libsystemd nor ncursesw, nor what they load: status bars spawn its
/// one-shot commands every second, and loading those libraries was most of a command's
/// instructions (BENCHMARKS.md, "badgectl start-up"). `watch`, `top`, `open` and `stats`'
/// count-up need them and run in `badgectl-session`, which `badgectl` becomes (exec) for them.
@Suite struct OneShotLibrariesTests {
  /// What badgectl-session names for the session bus, sd-event, the INI reader and curses.
  static let sessionLibraries: Set = ["libsystemd.so.0", "libinih.so.1", "libncursesw.so.6", "libtinfo.so.6"]
  /// Those with what libsystemd loads in its turn.
  static let sessionChain = sessionLibraries.union([
    "libcap.so.2", "libgcrypt.so.20", "libgpg-error.so.0", "liblz4.so.1", "liblzma.so.5", "libzstd.so.1",
  ])

  /// The shared libraries `program` names (its ELF `NEEDED` entries).
  static func needed(_ program: String) throws -> Set<String> {
    let dynamic = try run("readelf", ["--dynamic", program])
    guard dynamic.status == 0 else { throw TestFailure("readelf \(program): \(dynamic.stderr)") }
    return Set(dynamic.stdout.matches(of: /\(NEEDED\)\s+Shared library: \[([^\]]+)\]/).map { String($0.1) })
  }

  /// `program get mail` against `socket`, and the file names of the libraries the dynamic
  /// loader initialised for it (`LD_DEBUG=libs`: "calling init: /lib/…/libc.so.6").
  static func getLoading(_ program: URL, socket: String) throws -> (output: String, loaded: Set<String>) {
    let result = try capture(
      [program.path, "get", "mail"], environment: Child.environment(["BADGED_SOCKET": socket, "LD_DEBUG": "libs"]))
    guard result.status == 0 else { throw TestFailure("\(program.path) get mail: \(result.stderr)") }
    let loaded = result.stderr.matches(of: /calling init: (\S+)/).compactMap { $0.1.split(separator: "/").last }
    return (result.stdout, Set(loaded.map(String.init)))
  }

  @Test func badgectlNamesNoneOfTheSessionLibrariesAndBadgectlSessionNamesThemAll() throws {
    try Binaries.check()
    let ctl = try Self.needed(Binaries.badgectl.path)
    #expect(ctl.contains("libc.so.6"), "\(ctl)")
    #expect(ctl.isDisjoint(with: Self.sessionChain), "\(ctl)")
    #expect(try Self.needed(Binaries.badgectlSession.path).isSuperset(of: Self.sessionLibraries))
  }

  @Test func aGetLoadsNoneOfThemWhereTheSameGetInBadgectlSessionLoadsThemAll() throws {
    let daemon = try DaemonProcess()
    #expect(try badgectl(["set", "mail", "3"], socket: daemon.socket).status == 0)
    let ctl = try Self.getLoading(Binaries.badgectl, socket: daemon.socket)
    #expect(ctl.output.hasPrefix("mail 3"))
    #expect(ctl.loaded.contains("libc.so.6"), "\(ctl.loaded)")
    #expect(ctl.loaded.isDisjoint(with: Self.sessionChain), "\(ctl.loaded)")

    let session = try Self.getLoading(Binaries.badgectlSession, socket: daemon.socket)
    #expect(session.output.hasPrefix("mail 3"))
    #expect(session.loaded.isSuperset(of: Self.sessionChain), "\(session.loaded)")
  }

  @Test func theSessionCommandsRunInBadgectlSessionWithTheSameCommandLine() throws {
    try Binaries.check()
    // An option that does not fit the format is refused once the watch runs, in badgectl-session.
    let line = ["watch", "--big", "--format", "plain"]
    let direct = try capture([Binaries.badgectlSession.path] + line, environment: Child.environment())
    let handed = try badgectl(line, socket: nil)
    #expect(direct.status == 64 && direct.stderr.hasPrefix("Error: '--big' applies to --format term, not 'plain'\n"))
    #expect(handed.status == direct.status && handed.stderr == direct.stderr && handed.stdout == direct.stdout)
  }

  @Test func aWatchRunsInBadgectlSessionUnderBadgectlsOwnCommandLine() throws {
    let daemon = try DaemonProcess()
    #expect(try badgectl(["incr", "mail", "2"], socket: daemon.socket).status == 0)
    let watch = try WatchProcess(["mail", "--format", "plain"], socket: daemon.socket)
    defer { _ = watch.stop() }
    #expect(try watch.readLine() == "2")
    // The program is badgectl-session; ps and pkill -f see the line badgectl was started with.
    let program = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(watch.pid)/exe")
    #expect(program == Binaries.badgectlSession.resolvingSymlinksInPath().path)
    let line = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(watch.pid)/cmdline"))
    let arguments = line.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    #expect(arguments == [Binaries.badgectl.path, "watch", "mail", "--format", "plain"])
  }

  @Test func withoutBadgectlSessionTheOneShotCommandsWorkAndTheOthersSayWhatIsMissing() throws {
    let daemon = try DaemonProcess()
    let folder = try TemporaryFolder()
    let alone = folder.file("badgectl")
    #expect(try run("/usr/bin/install", ["-m", "0755", Binaries.badgectl.path, alone]).status == 0)
    let environment = Child.environment(["BADGED_SOCKET": daemon.socket])
    #expect(try capture([alone, "incr", "mail"], environment: environment).stdout == "mail 1 pulsing\n")
    for (command, arguments) in [("watch", []), ("top", []), ("open", ["app:org.example.App"])] {
      let result = try capture([alone, command] + arguments, environment: environment)
      #expect(result.status == 69)
      #expect(
        result.stderr == "Error: 'badgectl \(command)' runs in badgectl-session, which could not be started: "
          + "\(folder.path)/../libexec/badged/badgectl-session: No such file or directory; "
          + "\(folder.path)/badgectl-session: No such file or directory.\n")
      #expect(result.stdout == "")
    }
    // Nothing was cleared on the way.
    #expect(try capture([alone, "get", "mail"], environment: environment).stdout.hasPrefix("mail 1"))
  }
}
