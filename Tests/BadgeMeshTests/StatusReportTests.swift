import BadgeCore
import Testing

@testable import BadgeMesh

/// The status part alone: what it reports, and when.
@Suite struct StatusReportTests {
  static func facts(_ phase: BrokerSession.Phase = .synced, waiting: Int = 0, error: String? = nil)
    -> StatusReport.Facts
  {
    StatusReport.Facts(
      broker: BrokerAddress(tls: true, host: "broker.lan", port: 8883), phase: phase, error: error, sharing: 2,
      mirroring: 3, waiting: waiting)
  }

  @Test func aChangeIsReportedAtOnceOrWithinASecond() {
    var status = StatusReport()
    var outbox = MeshOutbox()
    var time = partTime
    status.report(Self.facts(), daemonReady: true, now: true, at: time, into: &outbox)
    let actions = outbox.takeActions()
    #expect(actions.sent == ["BRIDGE status connected=1 broker=mqtts://broker.lan:8883 pending=0"])
    #expect(
      actions.dropFirst() == [.status("Connected to mqtts://broker.lan:8883; sharing 2, mirroring 3, 0 writes waiting")]
    )
    // The same again: nothing.
    status.report(Self.facts(), daemonReady: true, now: true, at: time, into: &outbox)
    #expect(outbox.takeActions().isEmpty)
    // A write waiting, half a second later: held until the second is over.
    time.monotonic += 500_000
    status.report(Self.facts(waiting: 1), daemonReady: true, now: false, at: time, into: &outbox)
    #expect(outbox.takeActions().isEmpty)
    #expect(status.isDirty && status.nextDeadline == 6_000_000)
    time.monotonic = 6_000_000
    status.report(Self.facts(waiting: 1), daemonReady: true, now: false, at: time, into: &outbox)
    #expect(outbox.takeActions().sent == ["BRIDGE status connected=1 broker=mqtts://broker.lan:8883 pending=1"])
    #expect(!status.isDirty && status.nextDeadline == nil)
  }

  @Test func withoutTheDaemonOnlyTheServiceManagerIsTold() {
    var status = StatusReport()
    var outbox = MeshOutbox()
    status.report(Self.facts(.down, error: "refused"), daemonReady: false, now: true, at: partTime, into: &outbox)
    #expect(
      outbox.takeActions() == [
        .status("Not connected to mqtts://broker.lan:8883: refused; sharing 2, mirroring 3, 0 writes waiting")
      ])
    // A new daemon is told the status even though it did not change.
    status.forgetLast()
    status.report(Self.facts(.down, error: "refused"), daemonReady: true, now: true, at: partTime, into: &outbox)
    #expect(
      outbox.takeActions().sent == ["BRIDGE status connected=0 broker=mqtts://broker.lan:8883 pending=0 error=refused"])
  }
}
