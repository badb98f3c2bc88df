import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Home Assistant's venv, which `scripts/install-deps --test` makes (`HA_VENV` names another):
/// Home Assistant 2025.4.4 with what `hass` needs to start with the MQTT integration.
enum HomeAssistantVenv {
  static var folder: String { ProcessInfo.processInfo.environment["HA_VENV"] ?? "/opt/badged-test/homeassistant" }

  /// The venv's python3; a failure that says how to make the venv when it is not there, so a
  /// machine without it fails the tests that need it rather than skipping them.
  static func python() throws -> String {
    let python = folder + "/bin/python3"
    guard FileManager.default.isExecutableFile(atPath: python) else {
      throw TestFailure(
        "Home Assistant is not installed in \(folder): run scripts/install-deps --test (make test and CI do)")
    }
    return python
  }
}

/// A real Home Assistant core (Tests/Tools/ha-core in Home Assistant's venv), onboarded, with
/// the MQTT integration connected to `broker` as its `homeassistant` account over TLS, driven
/// one command and one reply line at a time.
///
/// Sendable because a test suite shares one (it takes seconds to start): the commands are sent
/// one at a time under `lock`, so two tests never interleave their lines.
final class HomeAssistantCore: @unchecked Sendable {
  private let child: Child
  private var input: LineInput
  private let lock = NSLock()
  /// Its standard error: where it writes the end of Home Assistant's log when it does not start.
  private let errorPath: String
  private let logPath: String
  /// How long it took from its start to the MQTT integration loaded, in seconds (its word).
  let startSeconds: Double

  /// Starts it with `launcher` (what runs it in a network namespace) and waits until it says it
  /// is ready. Its and Home Assistant's logs go into `folder`.
  init(broker: Broker, launcher: [String] = [], folder: TemporaryFolder) throws {
    let python = try HomeAssistantVenv.python()
    errorPath = folder.file("ha-core.err")
    logPath = folder.file("home-assistant.log")
    var arguments = launcher + [python, Repository.path("Tests/Tools/ha-core")]
    arguments += ["--broker-host", broker.hostName, "--broker-port", String(broker.port), "--ca-file", broker.caFile]
    arguments += ["--username", "homeassistant", "--password", Broker.passwords["homeassistant"]!]
    arguments += ["--log-file", logPath, "--start-timeout", "150"]
    child = try Child(
      arguments, environment: Child.environment(), stdin: .pipe, stdout: .pipe, stderr: .file(errorPath))
    input = LineInput(fd: child.output)
    let ready = try input.next(timeout: 180, what: "ha-core") ?? "(no output)"
    guard ready.hasPrefix("ready "), let seconds = Double(ready.dropFirst("ready ".count)) else {
      child.wait()
      let log = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
      throw TestFailure("Home Assistant did not start: \(ready)\n\(log)")
    }
    startSeconds = seconds
  }

  /// Stops Home Assistant: the end of its input is `quit`.
  deinit {
    child.closeInput()
    child.wait()
  }

  /// Sends one command; its reply.
  func send(_ command: String, timeout: Double = 30) throws -> String {
    try lock.withLock {
      let bytes = Array((command + "\n").utf8)
      guard bytes.withUnsafeBytes({ write(child.input, $0.baseAddress, $0.count) }) == bytes.count else {
        throw TestFailure("writing to ha-core failed: errno \(errno)")
      }
      guard let reply = try input.next(timeout: timeout, what: "ha-core") else { throw TestFailure("ha-core exited") }
      guard !reply.hasPrefix("error ") else { throw TestFailure("ha-core: \(command): \(reply)") }
      return reply
    }
  }

  /// The entity's state object (`state`, `attributes`, …), or nil when there is none.
  func state(_ entity: String) throws -> [String: Any]? {
    let reply = try send("state \(entity)")
    guard reply != "none" else { return nil }
    guard let object = try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any] else {
      throw TestFailure("ha-core: state \(entity): not a JSON object: \(reply)")
    }
    return object
  }

  /// Waits until the entity's state is `state`: the milliseconds it waited, or nil when it was
  /// not so within `timeout` seconds (`last` then says what it was).
  func wait(_ entity: String, for state: String, timeout: Double = Machine.patience) throws -> (
    milliseconds: Int?, last: String
  ) {
    let reply = try send("wait \(entity) \(state) \(Int(timeout * 1000))", timeout: timeout + 30)
    let words = reply.split(separator: " ", maxSplits: 1).map(String.init)
    if words.first == "ok", words.count == 2, let milliseconds = Int(words[1]) { return (milliseconds, state) }
    guard words.first == "timeout" else { throw TestFailure("ha-core: wait \(entity): \(reply)") }
    return (nil, words.count > 1 ? words[1] : "")
  }

  /// Calls a service (`switch.turn_on`) on the entity.
  func call(_ service: String, _ entity: String) throws {
    _ = try send("call \(service) \(entity)")
  }

  /// Entity id to unique_id of every entity the MQTT integration made.
  func entities() throws -> [String: String] {
    let reply = try send("entities")
    guard let object = try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: String] else {
      throw TestFailure("ha-core: entities: not a JSON object of strings: \(reply)")
    }
    return object
  }

  /// The end of Home Assistant's log, for a failure's message.
  var logTail: String {
    let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    return log.split(separator: "\n").suffix(30).joined(separator: "\n")
  }
}
