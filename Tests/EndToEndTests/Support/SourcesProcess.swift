import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The built `badged-sources`, started for real on a config file and a daemon's socket, as
/// `badged-mqtt` is in the bridge's tests: its standard error in a file of `folder`.
final class SourcesProcess {
  private let child: Child
  private let stderrPath: String

  /// Starts the program on `config` and `socket`, with `environment` set on top of
  /// `Child.environment()` (a notmuch source's `NOTMUCH_CONFIG`).
  init(
    folder: TemporaryFolder, config: String, socket: String, arguments: [String] = ["--log-level", "debug"],
    environment: [String: String] = [:]
  ) throws {
    try Binaries.check()
    stderrPath = folder.file("badged-sources-\(UUID().uuidString.prefix(6)).log")
    child = try Child(
      [Binaries.badgedSources.path, "--config", config, "--socket", socket] + arguments,
      environment: Child.environment(environment), stderr: .file(stderrPath))
  }

  /// What the program wrote to standard error so far.
  var log: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

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
