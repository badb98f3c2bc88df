import Foundation

/// The result of running the built `badgectl` once.
struct CtlResult {
  let status: Int32
  let stdout: String
  let stderr: String
}

/// Runs `badgectl` with `arguments` against `socket` (through `BADGED_SOCKET`) and waits.
@discardableResult
func badgectl(_ arguments: [String], socket: String?, environment extra: [String: String] = [:]) throws -> CtlResult {
  try Binaries.check()
  let process = Process()
  process.executableURL = Binaries.badgectl
  process.arguments = arguments
  var environment = ProcessInfo.processInfo.environment
  environment.removeValue(forKey: "BADGED_SOCKET")
  if let socket { environment["BADGED_SOCKET"] = socket }
  environment.merge(extra) { $1 }
  process.environment = environment
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  try process.run()
  let stdout = out.fileHandleForReading.readDataToEndOfFile()
  let stderr = err.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return CtlResult(
    status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
    stderr: String(decoding: stderr, as: UTF8.self))
}

/// A long-running `badgectl watch`, read line by line.
final class WatchProcess {
  let process = Process()
  private let out = Pipe()
  private lazy var input = LineInput(fd: out.fileHandleForReading.fileDescriptor)

  /// Starts `badgectl watch` with `arguments`; `input`, when given, becomes its standard input
  /// (a bar's click pipe), else it reads from /dev/null.
  init(_ arguments: [String], socket: String, environment extra: [String: String] = [:], input: Pipe? = nil) throws {
    try Binaries.check()
    process.executableURL = Binaries.badgectl
    process.arguments = ["watch"] + arguments
    var environment = ProcessInfo.processInfo.environment
    environment["BADGED_SOCKET"] = socket
    environment.merge(extra) { $1 }
    process.environment = environment
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    process.standardInput = input ?? FileHandle.nullDevice
    try process.run()
  }

  var pid: Int32 { process.processIdentifier }

  /// The next line, waiting up to `timeout` seconds.
  func readLine(timeout: Double = 10) throws -> String {
    guard let line = try input.next(timeout: timeout, what: "badgectl watch") else {
      throw TestFailure("watch closed its output")
    }
    return line
  }

  /// Reads lines until one satisfies `match`; returns it.
  func readLine(timeout: Double = 10, matching match: (String) -> Bool) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let line = try readLine(timeout: max(0.01, deadline.timeIntervalSinceNow))
      if match(line) { return line }
    }
  }

  var isRunning: Bool { process.isRunning }

  func stop() -> Int32 {
    if process.isRunning { kill(process.processIdentifier, SIGTERM) }
    process.waitUntilExit()
    return process.terminationStatus
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }
}
