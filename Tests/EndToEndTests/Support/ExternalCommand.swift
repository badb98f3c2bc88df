import Foundation

/// Runs a program other than badged and badgectl (systemd-analyze, man, a shell, make) and
/// waits for it.
///
/// - Parameters:
///   - executable: an absolute path, or a name looked up in `PATH`.
///   - environment: variables to set or override on top of `Child.environment()`.
///   - currentDirectory: the folder to run it in (through `env -C`).
@discardableResult
func run(
  _ executable: String, _ arguments: [String], environment extra: [String: String] = [:],
  currentDirectory: String? = nil
) throws -> CtlResult {
  let prefix = currentDirectory.map { ["/usr/bin/env", "-C", $0] } ?? []
  return try capture(prefix + [executable] + arguments, environment: Child.environment(extra))
}

/// Runs `arguments` with exactly `environment` and waits; standard output through a pipe,
/// standard error through a file, so a program that fills one while the other is read never
/// blocks.
func capture(_ arguments: [String], environment: [String: String]) throws -> CtlResult {
  let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("bdt-err-\(UUID().uuidString)").path
  defer { try? FileManager.default.removeItem(atPath: errorFile) }
  let child = try Child(arguments, environment: environment, stdout: .pipe, stderr: .file(errorFile))
  let stdout = child.readAllOutput()
  let status = child.wait()
  let stderr = (try? Data(contentsOf: URL(fileURLWithPath: errorFile))) ?? Data()
  return CtlResult(
    status: status, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
}
