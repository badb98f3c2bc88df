import BadgeConfig
import BadgeProtocol
import Testing

@testable import BadgeCore

/// The `step` setting on the wire: set and reset by `CONFIGURE`, shown on `STATE`/`EVENT` lines
/// only when it is not 1, and read back by clients.
@Suite struct StepLineTests {
  @Test func configureSetsAndResetsIt() {
    #expect(
      parse("CONFIGURE mail step=5") == .success(.configure(name("mail"), set: SettingsOverride(step: 5), reset: [])))
    #expect(
      parse("CONFIGURE mail step=default")
        == .success(.configure(name("mail"), set: SettingsOverride(), reset: [.step])))
    #expect(
      parse("CONFIGURE mail step=0")
        == .failure(ProtocolError(.badSetting, "Invalid value '0' for step: expected a number from 1 to 2147483647")))
    #expect(
      parse("CONFIGURE mail step=x")
        == .failure(ProtocolError(.badSetting, "Invalid value 'x' for step: expected a whole number")))
  }

  func line(_ override: SettingsOverride) throws -> String {
    var config = DaemonConfig()
    config.defaults.pulseMs = 0
    let store = Store(config: config.channels)
    _ = try store.apply(.configure(set: override, reset: []), to: name("mail"), now: 0)
    _ = try store.apply(.write(.incr(4)), to: name("mail"), now: 0)
    var out: [UInt8] = []
    ReplyEncoder.appendState(store.channel(named: name("mail")), kind: .event, now: 0, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  @Test func theLineCarriesTheStepOnlyWhenItIsNotOne() throws {
    let plain = "EVENT mail count=4 label=4 dot=0 pulse=0 muted=0 seq=2 badge=count dnd=off unseen=4 total=4\n"
    #expect(try line(SettingsOverride(muted: false)) == plain)
    #expect(try line(SettingsOverride(step: 1)) == plain)
    #expect(
      try line(SettingsOverride(step: 5))
        == "EVENT mail count=4 label=4 dot=0 pulse=0 muted=0 seq=2 badge=count dnd=off unseen=4 step=5 total=4\n")
  }

  @Test func clientsReadTheStepAndTakeOneWithoutIt() {
    guard
      case .event(let stepped) = ReplyLine(
        "EVENT mail count=4 label=4 dot=0 pulse=0 muted=0 seq=2 badge=count dnd=off unseen=4 step=5")
    else {
      Issue.record("not an event")
      return
    }
    #expect(stepped.step == 5 && stepped.count == 4)
    guard case .state(let plain) = ReplyLine("STATE mail count=4 label=4 dot=0 pulse=0 muted=0 seq=2") else {
      Issue.record("a line without step must still parse")
      return
    }
    #expect(plain.step == 1)
    // A step the daemon could never send makes the line unreadable, as a bad count does.
    for bad in ["step=0", "step=x", "step=2147483648"] {
      let text = "STATE mail count=4 label=4 dot=0 pulse=0 muted=0 seq=2 " + bad
      #expect(ReplyLine(text) == .data(text), "\(bad)")
    }
  }
}
