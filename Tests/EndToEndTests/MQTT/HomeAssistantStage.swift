import Foundation
import Testing

/// What HomeAssistantCoreTests share: a broker in a network namespace (`MeshNetwork`), and one
/// Home Assistant core in another, which reaches nothing but the broker, connected to it as
/// its `homeassistant` account. `hass` takes seconds to start, so it starts once for the
/// suite: the suite's trait (`.homeAssistantStage`) makes the stage before its first test and
/// stops it after its last.
///
/// Sendable because the suite's tests share it: they run one at a time (`.serialized`), and the
/// core takes one command at a time.
final class HomeAssistantStage: @unchecked Sendable {
  /// Declared before `network`, so that Home Assistant stops before its namespace goes.
  let core: HomeAssistantCore
  let network: MeshNetwork
  private let folder: TemporaryFolder

  /// The stage of the suite running now.
  @TaskLocal static var current: HomeAssistantStage?

  init() throws {
    try Binaries.check()
    _ = try HomeAssistantVenv.python()
    // The laptop and the server of its tests publish Home Assistant's discovery too.
    network = try MeshNetwork(homeAssistantHosts: ["laptop", "server"])
    folder = try TemporaryFolder()
    let link = try network.join("homeassistant")
    core = try HomeAssistantCore(broker: network.broker, launcher: link.launcher, folder: folder)
  }

  /// The stage of the suite this test runs in.
  static func inScope() throws -> HomeAssistantStage {
    guard let current else { throw TestFailure("no Home Assistant: the suite needs the .homeAssistantStage trait") }
    return current
  }

  /// Waits until Home Assistant shows `state` for `entity`; on failure, says what it showed and
  /// what the machine and Home Assistant logged.
  func waitFor(_ entity: String, _ state: String, from machine: Machine) throws {
    let shown = try core.wait(entity, for: state)
    guard shown.milliseconds == nil else { return }
    throw failure("\(entity) was \(shown.last), not \(state), for \(Machine.patience) s", machine)
  }

  /// Waits until Home Assistant shows the machine's do-not-disturb switch as the machine's own
  /// do-not-disturb is (which may still change as its bridge takes in the shared one).
  func waitForSwitch(_ entity: String, of machine: Machine) throws {
    var shown = "none"
    var own = ""
    let matched = try waitUntil(timeout: Machine.patience) {
      own = try machine.dnd()
      shown = try core.state(entity)?["state"] as? String ?? "none"
      return shown == own
    }
    guard !matched else { return }
    throw failure("\(entity) was \(shown), the machine's do-not-disturb \(own)", machine)
  }

  private func failure(_ what: String, _ machine: Machine) -> TestFailure {
    TestFailure("Home Assistant: \(what)\n\(machine.diagnostics)\nHome Assistant's log:\n\(core.logTail)")
  }
}

/// Makes the suite's `HomeAssistantStage` before its first test and stops it after its last;
/// says how long Home Assistant took to start and the suite to run.
struct HomeAssistantStageTrait: SuiteTrait, TestScoping {
  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    let start = ContinuousClock.now
    let stage = try HomeAssistantStage()
    print("Home Assistant: ready in \(stage.core.startSeconds) s (started, onboarded, MQTT added)")
    try await HomeAssistantStage.$current.withValue(stage) { try await function() }
    print("Home Assistant: the suite took \(start.duration(to: .now)) with its start")
  }
}

extension Trait where Self == HomeAssistantStageTrait {
  /// One Home Assistant core for the suite's tests (`HomeAssistantStage.inScope()`).
  static var homeAssistantStage: Self { Self() }
}
