import TestSupport
import Testing

@testable import BadgeCore
@testable import BadgeProtocol

/// The request encoder against the parser: every request value, generated over every command
/// and its edge values, is written as a line the parser reads back as the same request (with its
/// id, when it takes one); and whatever line the parser reads, its encoding is the one canonical
/// line of that request.
@Suite struct RequestEncoderTests {
  /// Requests of every command with their edge values, and as many drawn at random.
  static let requests: [Request] = {
    var random = SplitMix(seed: 26)
    return RequestValues.edges + (0..<2_000).map { _ in RequestValues.random(using: &random) }
  }()

  @Test func everyRequestReadsBackAsItself() throws {
    for request in Self.requests {
      let line = RequestEncoder.line(request)
      #expect(parseLine(line) == .success(RequestLine(request)), "\(line)")
      #expect(line.utf8.count <= RequestEncoder.room(request, id: nil), "\(line)")
    }
  }

  /// With an id: the request and the id of its token and fingerprint, for the requests that
  /// take one; a request that takes none is written without it.
  @Test func everyRequestReadsBackWithItsId() throws {
    let token = "laptop:9f3a1c2e:" + String(repeating: "7", count: 47)
    for request in Self.requests {
      let line = RequestEncoder.line(request, id: token)
      let id = request.takesID ? RequestID(token: token, fingerprint: request.fingerprint) : nil
      #expect(parseLine(line) == .success(RequestLine(request, id: id)), "\(line)")
      #expect(line.hasSuffix(" id=" + token) == request.takesID, "\(line)")
      #expect(line.utf8.count <= RequestEncoder.room(request, id: token), "\(line)")
      var appended: [UInt8] = []
      RequestEncoder.append(request, id: token, to: &appended)
      #expect(appended == Array((line + "\n").utf8))
    }
  }

  /// The fingerprint an id is saved with is that of the canonical line, without the id.
  @Test func theFingerprintIsTheCanonicalLines() {
    for request in Self.requests {
      var fingerprint = Fingerprint()
      Array(RequestEncoder.line(request).utf8).withUnsafeBytes { fingerprint.add($0) }
      #expect(request.fingerprint == fingerprint.value, "\(request)")
      #expect(request.canonical == RequestEncoder.line(request))
    }
  }

  /// However a line spells its request, the encoder writes the canonical line, which reads as
  /// the same request again.
  @Test(arguments: [
    ("incr  mail", "INCR mail 1"),
    ("Incr mail 0007\t", "INCR mail 7"),
    ("decr mail", "DECR mail 1"),
    ("set Mail 000", "SET Mail 0"),
    ("clear mail", "CLEAR mail"),
    ("clear mail upto=0012", "CLEAR mail upto=12"),
    ("CLEAR mail upto=99999999999999999999999", "CLEAR mail upto=9223372036854775807"),
    ("seen   *", "SEEN *"),
    ("clear *", "CLEAR *"),
    ("pulse ci 0500", "PULSE ci 500"),
    ("mute ci", "MUTE ci"),
    ("dnd", "DND"),
    ("DND ON 2h", "DND on 7200000ms"),
    ("dnd on 90s", "DND on 90000ms"),
    ("dnd Toggle", "DND toggle"),
    ("DND OFF at=5 from=desk", "DND off from=desk at=5"),
    ("DND on 1500ms at=9 from=desk", "DND on 1500ms from=desk at=9"),
    ("CONFIGURE ci step=05 style=dot max_label=09", "CONFIGURE ci max_label=9 style=dot step=5"),
    ("CONFIGURE ci muted=on style=default muted=OFF", "CONFIGURE ci style=default muted=no"),
    ("configure ci export=org.example.App dnd=ignore", "CONFIGURE ci dnd=ignore export=org.example.App"),
    ("stats", "STATS day"),
    ("stats Week app:* mail", "STATS week app:* mail"),
    ("stats mail", "STATS day mail"),
    ("watch", "WATCH"),
    ("watch  a*  b", "WATCH a* b"),
    ("watch since=007  a*", "WATCH since=7 a*"),
    ("WATCH since=18446744073709551615", "WATCH since=18446744073709551615"),
    ("bridge", "BRIDGE"),
    ("bridge host=laptop", "BRIDGE host=laptop"),
    (
      "BRIDGE status pending=02 broker=mqtts://b:8883 connected=1 error=no  route ",
      "BRIDGE status connected=1 broker=mqtts://b:8883 pending=2 error=no  route"
    ),
    ("BRIDGE status connected=0", "BRIDGE status connected=0 broker= pending=0"),
    // The error is kept as a line can carry it: a CR at its end would not survive the line's own.
    ("BRIDGE status connected=0 error=refused\r\t", "BRIDGE status connected=0 broker= pending=0 error=refused"),
    (
      "BRIDGE status connected=0 error=a\u{0C}b\rc\u{0}",
      "BRIDGE status connected=0 broker= pending=0 error=a\u{0C}b\rc\u{0}"
    ),
    (
      "MIRROR ci count=3 owner=nas",
      "MIRROR ci owner=nas count=3 unseen=3 total=3 muted=0 dot=0 label= pulse=0 oseq=0"
    ),
    ("MIRROR ci forget", "MIRROR ci forget"),
    ("stale nas 1 since=010", "STALE nas 1 since=10"),
    ("delivered l:1:2", "DELIVERED l:1:2"),
    ("forwards", "FORWARDS"),
    ("get mail", "GET mail"),
    ("hello", "HELLO"),
  ])
  func aParsedLineIsWrittenCanonically(_ spelled: String, _ canonical: String) throws {
    let request = try #require(try parse(spelled)?.get())
    #expect(RequestEncoder.line(request) == canonical)
    #expect(parse(canonical) == .success(request))
  }

  /// The lines of requests that take an id are the forms ids saved on disk were taken of: the
  /// fingerprint of each is that of these bytes, so they never change.
  @Test(arguments: [
    (Request.write(name("mail"), .incr(1)), "INCR mail 1"),
    (.write(name("mail"), .decr(3)), "DECR mail 3"),
    (.write(name("mail"), .set(0)), "SET mail 0"),
    (.write(name("mail"), .clear(upTo: nil)), "CLEAR mail"),
    (.write(name("mail"), .clear(upTo: 17)), "CLEAR mail upto=17"),
    (.write(name("mail"), .seen(upTo: 2)), "SEEN mail upto=2"),
    (.clearAll, "CLEAR *"),
    (.seenAll, "SEEN *"),
    (.write(name("mail"), .mute), "MUTE mail"),
    (.write(name("mail"), .unmute), "UNMUTE mail"),
    (
      .configure(name("mail"), set: SettingsOverride(maxLabel: 9, style: .dot, step: 5), reset: [.pulseMs]),
      "CONFIGURE mail max_label=9 style=dot pulse_ms=default step=5"
    ),
    (.dnd(.on(ms: 5_400_000)), "DND on 5400000ms"),
    (.dnd(.on(ms: nil)), "DND on"),
    (.dnd(.off), "DND off"),
    (.dnd(.toggle), "DND toggle"),
  ])
  func idsAreKeptWithTheseLines(_ request: Request, _ line: String) {
    #expect(RequestEncoder.line(request) == line)
    var fingerprint = Fingerprint()
    Array(line.utf8).withUnsafeBytes { fingerprint.add($0) }
    #expect(request.fingerprint == fingerprint.value)
  }

  /// A write forwarded for its owner takes its outbox id, but a `PULSE` takes none; the bridge's
  /// lines are written as it always wrote them.
  @Test func linesOfTheBridgeAndOfForwardedWrites() {
    #expect(RequestEncoder.line(.write(name("ci"), .incr(2)), id: "l:1:1") == "INCR ci 2 id=l:1:1")
    #expect(RequestEncoder.line(.write(name("ci"), .pulse(ms: 500)), id: "l:1:8") == "PULSE ci 500")
    #expect(RequestEncoder.line(.write(name("ci"), .pulse(ms: nil)), id: "l:1:9") == "PULSE ci")
    let update = MirrorUpdate(
      owner: "desktop", count: 3, unseen: 2, total: 17, muted: false, dot: false, pulseMs: 2100, ownerSeq: 42,
      label: "3")
    #expect(
      RequestEncoder.line(.mirror(name("mail"), update))
        == "MIRROR mail owner=desktop count=3 unseen=2 total=17 muted=0 dot=0 label=3 pulse=2100 oseq=42")
    let status = BridgeStatus(
      connected: false, broker: "mqtts://b:8883", pending: 2, error: "Connection refused\nagain")
    #expect(
      RequestEncoder.line(.bridge(.status(status)))
        == "BRIDGE status connected=0 broker=mqtts://b:8883 pending=2 error=Connection refused again")
    #expect(RequestEncoder.line(.stale(host: "desktop", stale: false, since: nil)) == "STALE desktop 0")
    #expect(
      RequestEncoder.line(.remoteDND(RemoteDND(on: true, ms: 50, from: "laptop", at: 800)))
        == "DND on 50ms from=laptop at=800")
  }
}
