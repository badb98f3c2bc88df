import BadgeCore
import BadgeProtocol
import BadgeWeb
import Testing

/// `WebReply`: the daemon's replies as the API's answers, and `EventsRequest.parse`.
@Suite struct WebReplyTests {
  static func body(_ response: HTTPResponse) -> String {
    guard case .bytes(let bytes) = response.body else { return "" }
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func aWritesReplyIsTheChannelOrTheErrorWithItsStatus() {
    let ok = WebReply.response(to: ReplyLine("STATE mail count=3 label=3 dot=0 pulse=0 muted=0 seq=13 total=140"))
    #expect(ok.status == 200 && ok.header("content-type") == "application/json")
    #expect(
      Self.body(ok)
        == "{\"name\":\"mail\",\"count\":3,\"label\":\"3\",\"dot\":false,\"pulse\":0,\"muted\":false,\"seq\":13,"
        + "\"badge\":\"count\",\"dnd\":\"off\",\"unseen\":3,\"step\":1,\"total\":140}")
    let reused = WebReply.response(to: ReplyLine("ERR id-reused id web-1 was used for another request"))
    #expect(reused.status == 409)
    #expect(Self.body(reused) == "{\"error\":\"id-reused\",\"message\":\"id web-1 was used for another request\"}")
    #expect(WebReply.response(to: ReplyLine("ERR bad-number n is not a number")).status == 400)
    #expect(WebReply.response(to: ReplyLine("ERR busy too many")).status == 503)
    #expect(WebReply.response(to: ReplyLine("ERR something-new x")).status == 503)
    #expect(WebReply.response(to: ReplyLine("OK")).status == 503)
  }

  @Test func everyProtocolErrorHasAStatus() {
    for code in ProtocolError.Code.allCases {
      #expect([400, 409, 503].contains(WebReply.status(ofError: code.rawValue)))
    }
    #expect(WebReply.status(ofError: "sourced") == 409 && WebReply.status(ofError: "full") == 409)
  }

  @Test func channelsFromTheState() {
    var state = WebState()
    state.replace(
      dnd: DNDSnapshot(isOn: false, leftMs: 0),
      channels: [ChannelSnapshot(channel: "mail", count: 1, label: "1", dot: false, pulseMs: 0, muted: false, seq: 4)])
    #expect(WebReply.channel("mail", in: state).status == 200)
    let missing = WebReply.channel("chat", in: state)
    #expect(missing.status == 404)
    #expect(
      Self.body(missing) == "{\"error\":\"unknown-channel\",\"message\":\"no channel 'chat' has a count or a setting\"}"
    )
    #expect(
      Self.body(WebReply.channels(in: state)).hasPrefix("{\"seq\":4,\"dnd\":{\"on\":false,\"left\":0},\"channels\":[{"))
    #expect(WebReply.methodNotAllowed(allowed: "GET").header("allow") == "GET")
  }

  @Test func eventsRequestsReadTheirIdAndPatterns() throws {
    let header = HTTPRequest(
      method: "GET", path: "/events", arguments: [("channel", "mail"), ("channel", "app:*")],
      headers: [("last-event-id", "140")])
    #expect(try EventsRequest.parse(header) == EventsRequest(lastEventID: 140, patterns: ["mail", "app:*"]))
    #expect(try EventsRequest.parse(header).channelPatterns == [ChannelPattern("mail")!, ChannelPattern("app:*")!])
    let argument = HTTPRequest(method: "GET", path: "/events", arguments: [("lastEventId", "7")])
    #expect(try EventsRequest.parse(argument) == EventsRequest(lastEventID: 7))
    #expect(try EventsRequest.parse(HTTPRequest(method: "GET", path: "/events")) == EventsRequest())
    for bad in [
      HTTPRequest(method: "GET", path: "/events", headers: [("last-event-id", "-1")]),
      HTTPRequest(method: "GET", path: "/events", headers: [("last-event-id", "x")]),
      HTTPRequest(method: "GET", path: "/events", arguments: [("channel", "bad name")]),
    ] {
      #expect(throws: WebWrite.Refusal.self) { try EventsRequest.parse(bad) }
    }
  }
}
