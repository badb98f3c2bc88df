import Foundation

/// The built `badged`, started for real on a temporary socket and state folder.
final class DaemonProcess {
  let folder: TemporaryFolder
  let socket: String
  let stateFolder: String
  private let child: Child
  private let stderrPath: String

  /// Starts `badged` and waits until its socket answers.
  ///
  /// - Parameters:
  ///   - folder: where the socket, state and logs go; a new one unless given (to restart a
  ///     daemon on the same state).
  ///   - config: the config file's text, if any.
  ///   - arguments: more arguments.
  ///   - wrapper: a command that runs badged (`setpriv …`, `prlimit …`), if any.
  ///   - environment: variables to set for the daemon (e.g. `NOTIFY_SOCKET`).
  ///   - executable: the `badged` to run: the one just built unless given (an installed one).
  init(
    folder: TemporaryFolder? = nil, socket: String? = nil, config: String? = nil, arguments: [String] = [],
    wrapper: [String] = [], environment extra: [String: String] = [:], waitForSocket: Bool = true,
    executable: String = Binaries.badged.path
  ) throws {
    try Binaries.check()
    self.folder = try folder ?? TemporaryFolder()
    self.socket = socket ?? self.folder.file("badged.sock")
    stateFolder = self.folder.file("state")
    stderrPath = self.folder.file("badged-\(UUID().uuidString.prefix(6)).log")
    _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
    var args = ["--socket", self.socket, "--state-dir", stateFolder]
    if let config { args += ["--config", try self.folder.write("badged.conf", config)] }
    child = try Child(
      wrapper + [executable] + args + arguments, environment: Child.environment(extra),
      stderr: .file(stderrPath))
    if waitForSocket {
      let up = waitUntil { RawClient.canConnect(self.socket) || !child.isRunning }
      guard up, child.isRunning else {
        throw TestFailure("badged did not start: \(log)")
      }
    }
  }

  /// What the daemon wrote to standard error so far.
  var log: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

  var pid: Int32 { child.pid }

  var isRunning: Bool { child.isRunning }

  /// Waits for the daemon to exit by itself; its exit status.
  func exitStatus() -> Int32 { child.wait() }

  /// SIGTERM, then the exit status.
  @discardableResult
  func stop() -> Int32 {
    child.signal(SIGTERM)
    return child.wait()
  }

  /// SIGKILL: a crash.
  func crash() {
    child.signal(SIGKILL)
    child.wait()
  }

  /// The state folder's files: `journal`, `snapshot`.
  func stateFile(_ name: String) -> String { stateFolder + "/" + name }

  /// A new client connected to this daemon.
  func client() throws -> RawClient { try RawClient(path: socket) }
}
