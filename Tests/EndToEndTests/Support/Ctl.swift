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
  var environment = Child.environment(extra)
  if let socket { environment["BADGED_SOCKET"] = socket }
  return try capture([Binaries.badgectl.path] + arguments, environment: environment)
}

/// A long-running `badgectl watch`, read line by line.
final class WatchProcess {
  private let child: Child
  private var input: LineInput

  /// Starts `badgectl watch` with `arguments`. With `clickInput` its standard input is a pipe
  /// the test writes to (a bar's click stream, `writeInput`), else /dev/null.
  init(_ arguments: [String], socket: String, environment extra: [String: String] = [:], clickInput: Bool = false)
    throws
  {
    try Binaries.check()
    var environment = Child.environment(extra)
    environment["BADGED_SOCKET"] = socket
    child = try Child(
      [Binaries.badgectl.path, "watch"] + arguments, environment: environment, stdin: clickInput ? .pipe : .null,
      stdout: .pipe)
    input = LineInput(fd: child.output)
  }

  var pid: Int32 { child.pid }

  /// Writes `text` to the watcher's standard input.
  func writeInput(_ text: String) throws {
    let bytes = Array(text.utf8)
    let n = bytes.withUnsafeBytes { write(child.input, $0.baseAddress, $0.count) }
    guard n == bytes.count else { throw TestFailure("writing to the watcher's input failed: errno \(errno)") }
  }

  /// Closes the watcher's standard input, as a bar that goes away does.
  func closeInput() { child.closeInput() }

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

  var isRunning: Bool { child.isRunning }

  func stop() -> Int32 {
    child.signal(SIGTERM)
    return child.wait()
  }
}
