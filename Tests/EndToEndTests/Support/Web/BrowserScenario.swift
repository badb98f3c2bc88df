import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Tests/EndToEndTests/Fixtures/web/browser.py running one scenario in headless Chromium: its
/// result lines are read one by one, and a line ending in "?" waits for the test's answer.
final class BrowserScenario {
  private let child: Child
  private var input: LineInput
  private(set) var lines: [String] = []

  /// The venv with selenium that `scripts/install-deps --test` makes (`BADGED_WEB_VENV` names another).
  static var venv: String { ProcessInfo.processInfo.environment["BADGED_WEB_VENV"] ?? "/opt/badged-test/web" }

  /// One browser at a time in the whole test run: the figures the scenarios check (a count drawn
  /// within 100 ms, frames on time) are not measured against another Chromium on the same cores.
  private static let turn = DispatchSemaphore(value: 1)

  init(_ scenario: String, stage: WebStage, arguments: [String] = []) throws {
    let python = BrowserScenario.venv + "/bin/python3"
    guard FileManager.default.isExecutableFile(atPath: python) else {
      throw TestFailure("selenium is not installed in \(BrowserScenario.venv): run scripts/install-deps --test")
    }
    BrowserScenario.turn.wait()
    do { child = try BrowserScenario.start(python, scenario, stage: stage, arguments: arguments) } catch {
      BrowserScenario.turn.signal()
      throw error
    }
    input = LineInput(fd: child.output)
  }

  private static func start(_ python: String, _ scenario: String, stage: WebStage, arguments: [String]) throws -> Child
  {
    let profile = stage.daemon.folder.file("chromium-\(scenario)")
    var environment = Child.environment(["SE_OFFLINE": "true", "BADGED_BROWSER_PROFILE": profile])
    environment["PYTHONDONTWRITEBYTECODE"] = "1"
    let script = Repository.path("Tests/EndToEndTests/Fixtures/web/browser.py")
    return try Child(
      [python, script, stage.base, scenario, "--token", stage.token] + arguments, environment: environment,
      stdin: .pipe, stdout: .pipe, stderr: .file(stage.daemon.folder.file("browser.log")), newSession: true)
  }

  deinit {
    child.closeInput()
    child.signal(SIGTERM)
    child.wait()
    BrowserScenario.turn.signal()
  }

  /// The next result line.
  func next(timeout: Double = 60) throws -> String {
    guard let line = try input.next(timeout: timeout, what: "browser.py") else {
      throw TestFailure("browser.py ended; its lines: \(lines)")
    }
    lines.append(line)
    return line
  }

  /// Reads lines up to the question `prompt?`; the lines before it.
  @discardableResult
  func until(_ prompt: String, timeout: Double = 60) throws -> [String] {
    var before: [String] = []
    while true {
      let line = try next(timeout: timeout)
      if line == prompt + "?" { return before }
      before.append(line)
    }
  }

  /// Answers the question browser.py asked.
  func answer(_ text: String) throws {
    let bytes = Array((text + "\n").utf8)
    let n = bytes.withUnsafeBytes { write(child.input, $0.baseAddress, $0.count) }
    guard n == bytes.count else { throw TestFailure("writing to browser.py failed: errno \(errno)") }
  }

  /// Every line until browser.py ends, and its exit status.
  func rest(timeout: Double = 60) throws -> (lines: [String], status: Int32) {
    var rest: [String] = []
    while let line = try input.next(timeout: timeout, what: "browser.py") {
      lines.append(line)
      rest.append(line)
    }
    return (rest, child.wait())
  }

  /// The wall clock in milliseconds, as the page's `performance.timeOrigin + now()` counts it.
  static var nowMs: String { String(Date().timeIntervalSince1970 * 1000) }
}

/// A line's `key=value` word, as a number.
func number(_ line: String, _ key: String) -> Double? {
  line.split(separator: " ").first { $0.hasPrefix(key + "=") }.flatMap { Double($0.dropFirst(key.count + 1)) }
}
