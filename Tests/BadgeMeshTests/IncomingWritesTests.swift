import BadgeCore
import Testing

@testable import BadgeMesh

/// Other machines' writes alone: carried out on channels held here, held until the claims are
/// known, answered on this machine's reply topic for the writer.
@Suite struct IncomingWritesTests {
  static let topics = MeshTopics(prefix: "badged/ana", host: "desktop")

  static func claims(holding channel: String) -> Claims {
    var claims = Claims(host: "desktop")
    _ = claims.claim(name(channel), now: 1)
    return claims
  }

  static func command(_ payload: String, reply: Bool = true) -> IncomingMessage {
    IncomingMessage(
      topic: "badged/ana/ch/mail/cmd", payload: Array(payload.utf8),
      responseTopic: reply ? "badged/ana/host/desktop/reply/laptop" : nil, correlation: Array("laptop:1:1".utf8))
  }

  @Test func aWriteBeforeTheRetainedStatesWaitsForThem() {
    var writes = IncomingWrites(topics: Self.topics)
    var outbox = MeshOutbox()
    let claims = Self.claims(holding: "mail")
    writes.commandHeard(
      name("mail"), Self.command(#"{"op":"incr","id":"laptop:1:1"}"#), claims: claims, links: links(synced: false),
      into: &outbox)
    #expect(outbox.takeActions().isEmpty)
    writes.synced(claims: claims, links: links(), into: &outbox)
    #expect(outbox.takeActions().sent == ["INCR mail 1 id=laptop:1:1"])
    writes.synced(claims: claims, links: links(), into: &outbox)
    #expect(outbox.takeActions().isEmpty)
  }

  @Test func theBrokerGoingDropsTheWritesHeld() {
    var writes = IncomingWrites(topics: Self.topics)
    var outbox = MeshOutbox()
    let claims = Self.claims(holding: "mail")
    writes.commandHeard(
      name("mail"), Self.command(#"{"op":"incr"}"#), claims: claims, links: links(synced: false), into: &outbox)
    writes.brokerDown()
    writes.synced(claims: claims, links: links(), into: &outbox)
    #expect(outbox.takeActions().isEmpty)
  }

  @Test func aWriteToAChannelNotHeldHereIsIgnored() {
    var writes = IncomingWrites(topics: Self.topics)
    var outbox = MeshOutbox()
    writes.commandHeard(
      name("mail"), Self.command(#"{"op":"incr"}"#), claims: Claims(host: "desktop"), links: links(), into: &outbox)
    #expect(outbox.takeActions().logged == ["debug: Ignored incr on mail: not owned here."])
  }

  @Test func theDaemonsReplyIsTheAnswer() {
    let writes = IncomingWrites(topics: Self.topics)
    var outbox = MeshOutbox()
    let command = ChannelCommand(.incr(1), id: "laptop:1:1")
    let route = ReplyRoute(topic: "badged/ana/host/desktop/reply/laptop", correlation: Array("laptop:1:1".utf8))
    writes.applyAnswered(name("mail"), command, route, refusal: "full too many", into: &outbox)
    let actions = outbox.takeActions()
    #expect(actions.logged == ["debug: badged refused incr on mail for another machine: full too many"])
    #expect(actions.published.map(\.topic) == ["badged/ana/host/desktop/reply/laptop"])
    #expect(actions.published.first?.correlation == Array("laptop:1:1".utf8))
    #expect(actions.published.first?.payload == CommandAnswer(id: "laptop:1:1", error: "full too many").payload)
  }
}
