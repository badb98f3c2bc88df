import BadgeProtocol
import Testing

@testable import BadgeCore

/// `FORWARD <id> <request line>`: what the daemon hands the bridge for each write to a mirrored
/// channel, byte for byte as it always did, and read back by the client's decoder.
@Suite struct ForwardLineTests {
  static let id = "laptop:9f3a1c2e:41"

  /// Each kind of write, and the line the daemon sends for it (its id within, but for a `PULSE`).
  static let lines: [(ChannelWrite, String)] = [
    (.incr(2), "FORWARD \(id) INCR ci 2 id=\(id)"),
    (.decr(1), "FORWARD \(id) DECR ci 1 id=\(id)"),
    (.set(0), "FORWARD \(id) SET ci 0 id=\(id)"),
    (.clear(upTo: 17), "FORWARD \(id) CLEAR ci upto=17 id=\(id)"),
    (.seen(upTo: 0), "FORWARD \(id) SEEN ci upto=0 id=\(id)"),
    (.mute, "FORWARD \(id) MUTE ci id=\(id)"),
    (.unmute, "FORWARD \(id) UNMUTE ci id=\(id)"),
    (.pulse(ms: nil), "FORWARD \(id) PULSE ci"),
    (.pulse(ms: 500), "FORWARD \(id) PULSE ci 500"),
  ]

  @Test(arguments: lines)
  func aForwardedWriteIsItsRequestLine(_ write: ChannelWrite, _ line: String) {
    let entry = ForwardEntry(id: Self.id, counter: 41, channel: name("ci"), write: write, seq: 3)
    var out: [UInt8] = []
    ReplyEncoder.appendForward(entry, to: &out)
    #expect(out == Array((line + "\n").utf8))
    #expect(ReplyLine(line) == .forward(id: Self.id, channel: name("ci"), write: write))
  }

  /// A line is read as the daemon reads requests: in any case, with the id in it or without;
  /// one that is no write of a channel, or whose id is another's, is a data line.
  @Test func aForwardIsReadAsTheDaemonReadsRequests() {
    #expect(ReplyLine("FORWARD l:1:1 incr  mail") == .forward(id: "l:1:1", channel: name("mail"), write: .incr(1)))
    #expect(
      ReplyLine("FORWARD l:1:1 clear mail upto=4")
        == .forward(id: "l:1:1", channel: name("mail"), write: .clear(upTo: 4)))
    for line in [
      "FORWARD ", "FORWARD l:1:1", "FORWARD bad id INCR mail", "FORWARD l:1:1 INCR m@il", "FORWARD l:1:1 EXPLODE mail",
      "FORWARD l:1:1 INCR mail 0", "FORWARD l:1:1 INCR mail id=l:1:2", "FORWARD l:1:1 PULSE mail id=l:1:1",
      "FORWARD l:1:1 CLEAR *", "FORWARD l:1:1 GET mail", "FORWARD a/b INCR mail",
    ] {
      #expect(ReplyLine(line) == .data(line), "\(line)")
    }
  }
}
