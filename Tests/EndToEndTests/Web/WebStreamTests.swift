import Foundation
import Testing

/// badged-web between the built badged and curl: the event stream's first lines, its ids, a
/// resume with `Last-Event-ID`, the token, a write retried with its id, and a clean stop.
@Suite struct WebStreamTests {
  @Test func theStreamGivesRetryThenTheSnapshotThenEachChangeWithItsSeq() throws {
    let rig = try WebRig()
    let token = try rig.token(readOnly: true)
    try rig.ctl("incr", "mail")
    let stream = try EventStreamReader(rig: rig, token: token)
    #expect(try stream.next() == StreamEvent(retry: "1000"))
    let snapshot = try stream.nextEvent()
    #expect(snapshot.name == "snapshot")
    #expect(snapshot.id == "1")
    #expect(snapshot.data?.hasPrefix("{\"seq\":1,") == true)
    #expect(snapshot.data?.contains("{\"name\":\"mail\",\"count\":1,") == true)
    try rig.ctl("incr", "mail", "3")
    let change = try stream.nextEvent()
    #expect(change.name == "change")
    #expect(change.id == "2")
    #expect(change.data?.hasPrefix("{\"name\":\"mail\",\"count\":4,\"label\":\"4\",") == true)
    #expect(change.data?.contains("\"seq\":2,") == true)
  }

  @Test func aResumeWithLastEventIDGetsExactlyTheChangesMissed() throws {
    let rig = try WebRig()
    let token = try rig.token(readOnly: true)
    let first = try EventStreamReader(rig: rig, token: token)
    #expect(try first.nextEvent().name == "snapshot")
    try rig.ctl("incr", "mail")
    #expect(try first.nextEvent().id == "1")
    first.close()
    for _ in 0..<5 { try rig.ctl("incr", "mail") }
    try rig.ctl("incr", "ci", "2")
    let resumed = try EventStreamReader(rig: rig, token: token, lastEventID: "1")
    #expect(try resumed.next() == StreamEvent(retry: "1000"))
    var ids: [String] = []
    var counts: [String] = []
    for _ in 0..<6 {
      let event = try resumed.nextEvent()
      #expect(event.name == "change")
      ids.append(event.id ?? "")
      counts.append(event.data.flatMap { WebStreamTests.field("count", in: $0) } ?? "")
    }
    #expect(ids == ["2", "3", "4", "5", "6", "7"])
    #expect(counts == ["2", "3", "4", "5", "6", "2"])
    // Nothing repeated after them: the next event is the next change.
    try rig.ctl("incr", "ci")
    let next = try resumed.nextEvent()
    #expect(next.id == "8")
    #expect(next.data.flatMap { WebStreamTests.field("count", in: $0) } == "3")
  }

  @Test func withoutATokenEveryRouteIs401AndNothingChanges() throws {
    let rig = try WebRig()
    for path in ["/events", "/api/channels", "/api/channels/mail", "/"] {
      let answer = try rig.request("GET", path, token: nil)
      #expect(answer.status == 401, "\(path)")
    }
    #expect(try rig.request("POST", "/api/channels/mail/incr", token: nil, form: "n=2").status == 401)
    #expect(try rig.request("POST", "/api/channels/mail/incr", token: "not-a-token", form: "n=2").status == 401)
    #expect(try rig.ctl("get", "mail").hasPrefix("mail 0"))
  }

  @Test func aWriteRetriedWithItsIdCountsOnce() throws {
    let rig = try WebRig()
    let token = try rig.token()
    let first = try rig.request("POST", "/api/channels/mail/incr", token: token, form: "n=3&id=phone-1")
    let again = try rig.request("POST", "/api/channels/mail/incr", token: token, form: "n=3&id=phone-1")
    #expect(first.status == 200)
    #expect(again.status == 200)
    #expect(WebStreamTests.field("count", in: first.body) == "3")
    #expect(WebStreamTests.field("count", in: again.body) == "3")
    let read = try rig.request("GET", "/api/channels/mail", token: token)
    #expect(read.status == 200)
    #expect(WebStreamTests.field("count", in: read.body) == "3")
    #expect(try rig.ctl("get", "mail").hasPrefix("mail 3"))
  }

  @Test func sigtermWithThreeOpenStreamsEndsThemAndExitsZero() throws {
    let rig = try WebRig()
    let token = try rig.token(readOnly: true)
    let streams = try (0..<3).map { _ in try EventStreamReader(rig: rig, token: token) }
    for stream in streams { #expect(try stream.nextEvent().name == "snapshot") }
    #expect(rig.web.stop() == 0)
    for stream in streams { #expect(stream.ended()) }
  }

  /// The value of a number field of a JSON object written on one line (`"count":3`).
  static func field(_ name: String, in json: String) -> String? {
    guard let range = json.range(of: "\"\(name)\":") else { return nil }
    return String(json[range.upperBound...].prefix { $0.isNumber })
  }
}
