import Foundation

/// The built `badged`, started for real on a temporary socket and state folder.
final class DaemonProcess {
  let folder: TemporaryFolder
  let socket: String
  let stateFolder: String
  let process = Process()
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
  init(
    folder: TemporaryFolder? = nil, socket: String? = nil, config: String? = nil, arguments: [String] = [],
    wrapper: [String] = [], environment extra: [String: String] = [:], waitForSocket: Bool = true
  ) throws {
    try Binaries.check()
    self.folder = try folder ?? TemporaryFolder()
    self.socket = socket ?? self.folder.file("badged.sock")
    stateFolder = self.folder.file("state")
    stderrPath = self.folder.file("badged-\(UUID().uuidString.prefix(6)).log")
    _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
    var args = ["--socket", self.socket, "--state-dir", stateFolder]
    if let config { args += ["--config", try self.folder.write("badged.conf", config)] }
    if let tool = wrapper.first {
      process.executableURL = URL(fileURLWithPath: tool)
      process.arguments = Array(wrapper.dropFirst()) + [Binaries.badged.path] + args + arguments
    } else {
      process.executableURL = Binaries.badged
      process.arguments = args + arguments
    }
    process.standardError = FileHandle(forWritingAtPath: stderrPath)
    process.standardOutput = FileHandle.nullDevice
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "BADGED_SOCKET")
    environment.removeValue(forKey: "NOTIFY_SOCKET")
    environment.merge(extra) { $1 }
    process.environment = environment
    try process.run()
    if waitForSocket {
      let up = waitUntil { RawClient.canConnect(self.socket) || !process.isRunning }
      guard up, process.isRunning else {
        throw TestFailure("badged did not start: \(log)")
      }
    }
  }

  /// What the daemon wrote to standard error so far.
  var log: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

  var pid: Int32 { process.processIdentifier }

  /// SIGTERM, then the exit status.
  @discardableResult
  func stop() -> Int32 {
    if process.isRunning { kill(pid, SIGTERM) }
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// SIGKILL: a crash.
  func crash() {
    if process.isRunning { kill(pid, SIGKILL) }
    process.waitUntilExit()
  }

  /// The state folder's files: `journal`, `snapshot`.
  func stateFile(_ name: String) -> String { stateFolder + "/" + name }

  /// A new client connected to this daemon.
  func client() throws -> RawClient { try RawClient(path: socket) }

  deinit {
    if process.isRunning {
      kill(pid, SIGKILL)
      process.waitUntilExit()
    }
  }
}
