import BadgeConfig
import BadgeProtocol
import Testing

@testable import BadgeCore

/// `SEEN`, `PULSE` and `DND`: parsing, their errors, and the lines that carry their state.
@Suite struct AttentionRequestTests {
  @Test func seen() {
    #expect(parse("SEEN mail") == .success(.write(name("mail"), .seen(upTo: nil))))
    #expect(parse("seen *") == .success(.seenAll))
    #expect(
      parse("SEEN")
        == .failure(ProtocolError(.badArguments, "Missing channel; usage: SEEN <channel> [upto=<total>] | SEEN *")))
    #expect(parse("SEEN m*") == .failure(ProtocolError(.badName, "Invalid channel name 'm*'; \(namingRule)")))
    #expect(
      parse("SEEN a b")
        == .failure(
          ProtocolError(.badArguments, "Unexpected argument 'b'; usage: SEEN <channel> [upto=<total>] | SEEN *")))
  }

  @Test func pulse() {
    #expect(parse("PULSE mail") == .success(.write(name("mail"), .pulse(ms: nil))))
    #expect(parse("pulse mail 1500") == .success(.write(name("mail"), .pulse(ms: 1500))))
    #expect(parse("PULSE mail 3600000") == .success(.write(name("mail"), .pulse(ms: 3_600_000))))
    let wanted = "expected milliseconds from 1 to 3600000"
    for bad in ["0", "3600001", "1s", "-5", "99999999999999999999999"] {
      #expect(
        parse("PULSE mail \(bad)") == .failure(ProtocolError(.badNumber, "Invalid pulse length '\(bad)'; \(wanted)")))
    }
    #expect(parse("PULSE") == .failure(ProtocolError(.badArguments, "Missing channel; usage: PULSE <channel> [ms]")))
  }

  @Test func dnd() {
    #expect(parse("DND") == .success(.dnd(.query)))
    #expect(parse("dnd ON") == .success(.dnd(.on(ms: nil))))
    #expect(parse("DND on 30m") == .success(.dnd(.on(ms: 1_800_000))))
    #expect(parse("DND on 1500ms") == .success(.dnd(.on(ms: 1500))))
    #expect(parse("DND off") == .success(.dnd(.off)))
    #expect(parse("DND toggle") == .success(.dnd(.toggle)))
    #expect(
      parse("DND maybe")
        == .failure(
          ProtocolError(.badArguments, "Unknown DND argument 'maybe'; usage: DND [on [<duration>] | off | toggle]")))
    #expect(
      parse("DND on 30")
        == .failure(
          ProtocolError(.badNumber, "Invalid duration '30'; expected a whole number and a unit: 1500ms, 90s, 30m or 2h")
        ))
    #expect(
      parse("DND on 0s")
        == .failure(
          ProtocolError(.badNumber, "Invalid duration '0s'; expected a whole number and a unit: 1500ms, 90s, 30m or 2h")
        ))
    #expect(
      parse("DND on 721h") == .failure(ProtocolError(.outOfRange, "The duration '721h' is over the longest, 30 days")))
    #expect(parse("DND on 720h") == .success(.dnd(.on(ms: 2_592_000_000))))
    #expect(
      parse("DND off 5m")
        == .failure(
          ProtocolError(.badArguments, "Unexpected argument '5m'; usage: DND [on [<duration>] | off | toggle]")))
  }

  @Test func theStarLineCarriesDoNotDisturb() {
    var out: [UInt8] = []
    ReplyEncoder.appendDND(DoNotDisturb(isOn: true, until: 3_000_001), kind: .state, now: 1_000_000, to: &out)
    ReplyEncoder.appendDND(.off, kind: .event, now: 1_000_000, to: &out)
    ReplyEncoder.appendDND(DoNotDisturb(isOn: true, until: 0), kind: .event, now: 1_000_000, to: &out)
    #expect(
      String(decoding: out, as: UTF8.self) == "STATE * dnd=1 left=2001\nEVENT * dnd=0 left=0\nEVENT * dnd=1 left=0\n")
    #expect(ReplyLine("STATE * dnd=1 left=2001") == .dnd(DNDSnapshot(isOn: true, leftMs: 2001), pushed: false))
    #expect(ReplyLine("EVENT * dnd=0 left=0 later=1") == .dnd(DNDSnapshot(isOn: false, leftMs: 0), pushed: true))
    #expect(ReplyLine("EVENT * dnd=1") == .data("EVENT * dnd=1"))
  }

  /// When do-not-disturb last changed ends its line: ` at=` alone for a change made here,
  /// ` from= at=` for another machine's, so a bridge tells them apart.
  @Test func theStarLineSaysWhenAndForAnotherMachinesChangeWhere() {
    var out: [UInt8] = []
    let here = DNDStamp(at: 1_764_620_000_123, host: "desk")
    ReplyEncoder.appendDND(DoNotDisturb(isOn: true, until: 0), kind: .state, now: 1_000_000, stamp: here, to: &out)
    let there = DNDStamp(at: 1_764_620_000_456, host: "laptop", remote: true)
    ReplyEncoder.appendDND(.off, kind: .event, now: 1_000_000, stamp: there, to: &out)
    #expect(
      String(decoding: out, as: UTF8.self)
        == "STATE * dnd=1 left=0 at=1764620000123\nEVENT * dnd=0 left=0 from=laptop at=1764620000456\n")
    // A reader takes both back.
    #expect(
      ReplyLine("STATE * dnd=1 left=0 at=1764620000123")
        == .dnd(DNDSnapshot(isOn: true, leftMs: 0, at: 1_764_620_000_123), pushed: false))
    #expect(
      ReplyLine("EVENT * dnd=0 left=0 from=laptop at=1764620000456")
        == .dnd(DNDSnapshot(isOn: false, leftMs: 0, from: "laptop", at: 1_764_620_000_456), pushed: true))
  }

  @Test func stateLinesCarryBadgeDNDAndUnseen() {
    let line = "EVENT mail count=4 label=1 dot=0 pulse=0 muted=0 seq=3 badge=unseen dnd=dim unseen=1"
    guard case .event(let snapshot) = ReplyLine(line) else {
      Issue.record("not an event: \(ReplyLine(line))")
      return
    }
    #expect(snapshot.badge == .unseen && snapshot.silenced == .dim && snapshot.unseen == 1 && snapshot.count == 4)
    #expect(!snapshot.isQuiet)
    guard case .state(let old) = ReplyLine("STATE mail count=4 label=4 dot=0 pulse=0 muted=0 seq=3") else {
      Issue.record("an older daemon's line must still parse")
      return
    }
    #expect(old.badge == .count && old.silenced == nil && old.unseen == 4)
    guard
      case .state(let quiet) = ReplyLine(
        "STATE mail count=4 label=◦ dot=0 pulse=0 muted=0 seq=3 badge=unseen dnd=off unseen=0")
    else {
      Issue.record("not a state")
      return
    }
    #expect(quiet.isQuiet && quiet.label == Label.quietDot)
  }

  @Test func theEncoderWritesTheNewFieldsLast() throws {
    var config = DaemonConfig()
    config.dndBadges = .show
    let store = Store(config: config.channels)
    _ = try store.apply(.configure(set: SettingsOverride(badge: .unseen), reset: []), to: name("mail"), now: 0)
    _ = try store.apply(.write(.incr(4)), to: name("mail"), now: 0)
    _ = try store.apply(.write(.seen(upTo: nil)), to: name("mail"), now: 0)
    store.setDND(DoNotDisturb(isOn: true, until: 0))
    var out: [UInt8] = []
    ReplyEncoder.appendState(store.channel(named: name("mail")), kind: .state, now: 0, to: &out)
    #expect(
      String(decoding: out, as: UTF8.self)
        == "STATE mail count=4 label=◦ dot=0 pulse=0 muted=0 seq=3 badge=unseen dnd=show unseen=0 total=4\n")
  }
}
