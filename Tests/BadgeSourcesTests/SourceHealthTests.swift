import BadgeLog
import BadgeSources
import Testing

/// `SourceHealth`: each state's word and staleness, and one log line per change, never one per
/// attempt.
@Suite struct SourceHealthTests {
  static func texts(_ states: [SourceHealth.State]) -> [String] {
    var health = SourceHealth(source: "mail")
    return states.compactMap { health.enter($0) }.map { "\($0.level) \($0.text)" }
  }

  @Test func words() {
    #expect(SourceHealth.State.starting.word == "waiting")
    #expect(SourceHealth.State.waiting(for: "/m").word == "waiting")
    #expect(SourceHealth.State.ok.word == "ok")
    #expect(SourceHealth.State.recounting.word == "recounting")
    #expect(SourceHealth.State.error("x").word == "error")
    #expect(SourceHealth.State.retrying(at: 5, because: "x").word == "retrying")
    #expect(!SourceHealth.State.waiting(for: "/m").isStale && !SourceHealth.State.ok.isStale)
    #expect(SourceHealth.State.error("x").isStale && SourceHealth.State.retrying(at: 5, because: "x").isStale)
    #expect(SourceHealth.State.retrying(at: 5, because: "it exited").reason == "it exited")
  }

  @Test func theServiceStatusSummary() {
    #expect(SourceHealth.summary([]) == "Running 0 sources")
    #expect(SourceHealth.summary([.ok]) == "Running 1 source: 1 ok")
    #expect(
      SourceHealth.summary([.error("x"), .ok, .starting, .retrying(at: 5, because: "y"), .ok, .recounting])
        == "Running 6 sources: 2 ok, 1 waiting, 1 recounting, 1 error, 1 retrying")
  }

  @Test func aStartAndRecounts() {
    #expect(
      Self.texts([.recounting, .ok, .ok, .recounting, .ok])
        == [
          "debug Source mail: recounting.", "debug Source mail: recounted.", "debug Source mail: recounting.",
          "debug Source mail: recounted.",
        ])
    #expect(
      Self.texts([.waiting(for: "/home/ana/Mail"), .waiting(for: "/home/ana/Mail"), .ok])
        == ["notice Source mail: waiting for /home/ana/Mail.", "info Source mail: counting."])
  }

  @Test func oneLinePerFailureNotPerAttempt() {
    let because = "the command exited with status 1"
    #expect(
      Self.texts([
        .ok, .retrying(at: 1000, because: because), .retrying(at: 3000, because: because),
        .retrying(at: 7000, because: because), .ok,
      ]) == [
        "info Source mail: counting.", "warning Source mail: the command exited with status 1; retrying.",
        "notice Source mail: counting again after 3 failed attempts.",
      ])
    #expect(
      Self.texts([.error("not a count: '-3'"), .error("not a count: '-3'"), .error("not a count: '1e9'"), .ok])
        == [
          "error Source mail: error: not a count: '-3'.", "error Source mail: error: not a count: '1e9'.",
          "notice Source mail: counting again after 3 failed attempts.",
        ])
    // The same retrying state told again while waiting is one failed attempt, not two.
    #expect(
      Self.texts([.ok, .retrying(at: 1000, because: because), .retrying(at: 1000, because: because), .ok]) == [
        "info Source mail: counting.", "warning Source mail: the command exited with status 1; retrying.",
        "notice Source mail: counting again after 1 failed attempt.",
      ])
    var health = SourceHealth(source: "x")
    _ = health.enter(.error("a"))
    #expect(health.failures == 1)
    _ = health.enter(.ok)
    #expect(health.failures == 0)
  }
}
