import BadgeCore
import Testing

@testable import BadgeMesh

/// The mirror's role alone: mirrors, hosts, and the writes forwarded to their owners.
@Suite struct MirrorRoleTests {
  static let topics = MeshTopics(prefix: "badged/ana", host: "desktop")
  static let news = ownerState("nas", count: 4, claimed: partTime.wallMs - 60_000)

  static func mirror() -> MirrorRole { MirrorRole(config: meshConfig(), topics: topics) }

  static func claims(_ owner: String, _ channel: String) -> Claims {
    var claims = Claims(host: "desktop")
    _ = claims.heard(name(channel), Claim(host: owner, claimed: partTime.wallMs - 60_000), now: partTime.wallMs)
    return claims
  }

  @Test func eachStateIsMirroredOnceAndARefusalLoggedOnce() {
    var mirror = Self.mirror()
    var outbox = MeshOutbox()
    mirror.mirror(name("news"), Self.news, daemonReady: true, at: partTime, into: &outbox)
    mirror.mirror(name("news"), Self.news, daemonReady: true, at: partTime, into: &outbox)
    #expect(
      outbox.takeActions().sent == [
        "MIRROR news owner=nas count=4 unseen=4 total=4 muted=0 dot=0 label=4 pulse=0 oseq=1"
      ])
    #expect(mirror.channels == [name("news")] && mirror.mirroredCount == 1)
    for _ in 0..<2 { mirror.mirrorAnswered(name("news"), refusal: "exists news is local", into: &outbox) }
    #expect(outbox.takeActions().logged == ["notice: Not showing news from nas here: exists news is local."])
    mirror.forget(name("news"), daemonReady: true, into: &outbox)
    mirror.forget(name("news"), daemonReady: true, into: &outbox)
    #expect(outbox.takeActions().sent == ["MIRROR news forget"])
    #expect(mirror.channels.isEmpty)
  }

  @Test func aHostsStatusMarksItsChannelsAndTheBrokerGoingMarksEveryone() {
    var mirror = Self.mirror()
    var outbox = MeshOutbox()
    let claims = Self.claims("nas", "news")
    mirror.statusHeard("nas", Array("online".utf8), claims: claims, links: links(), at: partTime, into: &outbox)
    mirror.statusHeard("nas", Array("online".utf8), claims: claims, links: links(), at: partTime, into: &outbox)
    #expect(outbox.takeActions().sent == ["STALE nas 0"])
    mirror.brokerDown(markStale: true, into: &outbox)
    #expect(outbox.takeActions().sent == ["STALE nas 1 since=1764620000"])
    // What the hosts said is heard again on the next connection.
    mirror.daemonReady(synced: true, into: &outbox)
    #expect(outbox.takeActions().isEmpty)
  }

  @Test func thisMachinesOwnLastWillIsAnsweredOnline() {
    var mirror = Self.mirror()
    var outbox = MeshOutbox()
    mirror.statusHeard(
      "desktop", Array("offline".utf8), claims: Claims(host: "desktop"), links: links(), at: partTime, into: &outbox)
    let actions = outbox.takeActions()
    #expect(actions.payloads(on: "badged/ana/host/desktop/status") == ["online"])
    #expect(actions.logged.count == 1)
  }

  @Test func aForwardedWriteGoesOnceSyncedAndItsAnswerIsDelivered() {
    var mirror = Self.mirror()
    var outbox = MeshOutbox()
    mirror.mirror(name("news"), Self.news, daemonReady: true, at: partTime, into: &outbox)
    _ = outbox.takeActions()
    let write = ForwardedWrite(
      id: "desktop:ab:1", channel: name("news"), command: ChannelCommand(.incr(1), id: "desktop:ab:1"))
    mirror.forwardTaken(write, synced: false, at: partTime, into: &outbox)
    #expect(outbox.statusChanged && mirror.pendingWrites == 1)
    #expect(outbox.takeActions().isEmpty)
    mirror.sendForwards(synced: true, at: partTime, into: &outbox)
    let sent = outbox.takeActions().published
    #expect(sent.map(\.topic) == ["badged/ana/ch/news/cmd"])
    #expect(sent.first?.responseTopic == "badged/ana/host/nas/reply/desktop")
    #expect(mirror.nextDeadline != nil)
    outbox.statusChanged = false
    let answer = IncomingMessage(
      topic: "badged/ana/host/nas/reply/desktop", payload: CommandAnswer(id: "desktop:ab:1").payload,
      correlation: Array("desktop:ab:1".utf8))
    let claims = Self.claims("nas", "news")
    // An answer from a host that does not own the channel is not the owner's.
    mirror.answerHeard(answer, from: "laptop", claims: claims, links: links(), at: partTime, into: &outbox)
    #expect(
      outbox.takeActions().logged == ["debug: Dropped an answer to desktop:ab:1 from laptop: it does not own news."])
    #expect(!outbox.statusChanged && mirror.pendingWrites == 1)
    mirror.answerHeard(answer, from: "nas", claims: claims, links: links(), at: partTime, into: &outbox)
    #expect(outbox.takeActions().sent == ["DELIVERED desktop:ab:1"])
    #expect(outbox.statusChanged && mirror.pendingWrites == 0)
    mirror.answerHeard(answer, from: "nas", claims: claims, links: links(), at: partTime, into: &outbox)
    #expect(outbox.takeActions().logged == ["debug: Dropped an answer to desktop:ab:1: no such write waits."])
  }

}
