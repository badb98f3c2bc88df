import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The built `badged-sources`, started for real on a config file and a daemon's socket, as
/// `badged-mqtt` is in the bridge's tests: its standard error in a file of `folder`; with a
/// `wrapper`, run by it (`seccomp-run …`), and from `executable` with `environment` added, as
/// DaemonProcess runs badged. badged-tray takes the same options and is run the same way
/// (`executable`, TrayProgram).
final class SourcesProcess {
  private let child: Child
  private let stderrPath: String

  /// Starts the program on `config` and `socket`, with `environment` set on top of
  /// `Child.environment()` (a notmuch source's `NOTMUCH_CONFIG`), under `wrapper` (seccomp-run)
  /// and from `executable` (an installed copy) when given.
  init(
    folder: TemporaryFolder, config: String, socket: String, arguments: [String] = ["--log-level", "debug"],
    wrapper: [String] = [], environment: [String: String] = [:], executable: String = Binaries.badgedSources.path
  ) throws {
    try Binaries.check()
    stderrPath = folder.file("\(URL(fileURLWithPath: executable).lastPathComponent)-\(UUID().uuidString.prefix(6)).log")
    child = try Child(
      wrapper + [executable, "--config", config, "--socket", socket] + arguments,
      environment: Child.environment(environment), stderr: .file(stderrPath))
  }

  /// What the program wrote to standard error so far.
  var log: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

  /// How many lines of its log contain `text`: a state change is said once.
  func logLines(containing text: String) -> Int {
    log.split(separator: "\n").filter { $0.contains(text) }.count
  }

  var pid: Int32 { child.pid }

  var isRunning: Bool { child.isRunning }

  func signal(_ number: Int32) { child.signal(number) }

  /// SIGTERM, then the exit status.
  @discardableResult
  func stop() -> Int32 {
    child.signal(SIGTERM)
    return child.wait()
  }
}
