import Foundation

/// The repository's root folder, for files the tests check (units, man pages, the Makefile).
enum Repository {
  static let root: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
}

/// Runs a program other than badged and badgectl (systemd-analyze, man, a shell, make) and
/// waits for it.
///
/// - Parameters:
///   - executable: an absolute path, or a name looked up in `PATH`.
///   - environment: variables to set or override on top of the test's own.
@discardableResult
func run(
  _ executable: String, _ arguments: [String], environment extra: [String: String] = [:],
  currentDirectory: String? = nil
) throws -> CtlResult {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
  process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
  var environment = ProcessInfo.processInfo.environment
  environment.merge(extra) { $1 }
  process.environment = environment
  if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
  // Standard error goes to a file, so a program that fills it while we read standard output
  // never blocks.
  let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("bdt-err-\(UUID().uuidString)")
  _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
  defer { try? FileManager.default.removeItem(at: errorFile) }
  let out = Pipe()
  process.standardOutput = out
  process.standardError = try FileHandle(forWritingTo: errorFile)
  process.standardInput = FileHandle.nullDevice
  try process.run()
  let stdout = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  let stderr = (try? Data(contentsOf: errorFile)) ?? Data()
  return CtlResult(
    status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
    stderr: String(decoding: stderr, as: UTF8.self))
}
