import BadgeCore
import Testing

@testable import BadgeMesh

/// The owner's role alone: claiming, publishing, giving way, releasing.
@Suite struct OwnerRoleTests {
  static let topics = MeshTopics(prefix: "badged/ana", host: "desktop")
  static let mail = DaemonLink.LocalState(name: name("mail"), count: 3, label: "3", unseen: 3, total: 3, seq: 4)

  static func owner(_ config: MeshConfig = meshConfig(homeAssistant: true)) -> (OwnerRole, HomeAssistantAnnouncer) {
    (OwnerRole(config: config, topics: topics), HomeAssistantAnnouncer(config: config, topics: topics))
  }

  @Test func aSharedChannelIsClaimedPublishedAndAnnounced() {
    var (owner, announcer) = Self.owner()
    var outbox = MeshOutbox()
    owner.own(name("mail"), Self.mail, links: links(synced: false), at: partTime, announcer: &announcer, into: &outbox)
    #expect(outbox.takeActions().isEmpty && owner.claims.held.isEmpty)
    owner.own(name("mail"), Self.mail, links: links(), at: partTime, announcer: &announcer, into: &outbox)
    let published = outbox.takeActions().published
    #expect(
      published.map(\.topic) == [
        "badged/ana/host/desktop/ch/mail/state", HomeAssistant(topics: Self.topics).sensorTopic(name("mail")),
      ])
    #expect(
      (try? ChannelState(payload: published[0].payload))
        == ownerState("desktop", count: 3, claimed: partTime.wallMs).with(seq: 4))
    #expect(owner.claims.held == [name("mail")])
  }

  @Test func anEarlierClaimIsGivenWayToAndMirrored() {
    var (owner, announcer) = Self.owner()
    var outbox = MeshOutbox()
    owner.own(name("mail"), Self.mail, links: links(), at: partTime, announcer: &announcer, into: &outbox)
    _ = outbox.takeActions()
    let earlier = ownerState("laptop", count: 1, claimed: partTime.wallMs - 1)
    let mirror = owner.stateHeard(
      name("mail"), earlier, from: "laptop", local: Self.mail, links: links(), at: partTime, announcer: &announcer,
      into: &outbox)
    #expect(mirror)
    let actions = outbox.takeActions()
    #expect(actions.logged == ["notice: mail was claimed earlier by laptop; giving way and mirroring it here."])
    // Its Home Assistant sensor and its own retained state go.
    #expect(
      actions.published.map(\.topic) == [
        HomeAssistant(topics: Self.topics).sensorTopic(name("mail")), "badged/ana/host/desktop/ch/mail/state",
      ])
    #expect(actions.published.allSatisfy { $0.payload.isEmpty && $0.retain })
    #expect(owner.claims.held.isEmpty)
    // A later claim than the standing one is dropped, not mirrored.
    let later = ownerState("nas", count: 1, claimed: partTime.wallMs)
    let again = owner.stateHeard(
      name("mail"), later, from: "nas", local: Self.mail, links: links(), at: partTime, announcer: &announcer,
      into: &outbox)
    #expect(!again)
    #expect(outbox.takeActions().logged == ["debug: Dropped a state of mail naming nas: laptop claimed it first."])
  }

  @Test func anEmptiedChannelIsTakenOverWhenSharedHere() {
    var (owner, announcer) = Self.owner(meshConfig())
    var outbox = MeshOutbox()
    let laptops = ownerState("laptop", count: 1, claimed: partTime.wallMs - 60_000)
    _ = owner.stateHeard(
      name("mail"), laptops, from: "laptop", local: Self.mail, links: links(), at: partTime, announcer: &announcer,
      into: &outbox)
    // Another host's emptied state is not the owner's release.
    #expect(owner.releaseHeard(name("mail"), from: "nas", local: Self.mail, into: &outbox) == nil)
    #expect(owner.claims.owner(of: name("mail"))?.host == "laptop")
    let previous = owner.releaseHeard(name("mail"), from: "laptop", local: Self.mail, into: &outbox)
    #expect(previous == "laptop")
    owner.takeOver(
      name("mail"), releasedBy: "laptop", local: Self.mail, links: links(), at: partTime, announcer: &announcer,
      into: &outbox)
    let actions = outbox.takeActions()
    #expect(actions.logged == ["info: laptop stopped sharing mail."])
    #expect(actions.published.map(\.topic) == ["badged/ana/host/desktop/ch/mail/state"])
    #expect(owner.claims.held == [name("mail")])
    // Emptied by someone else while held here: published again, not released.
    #expect(owner.releaseHeard(name("mail"), from: "desktop", local: Self.mail, into: &outbox) == nil)
    #expect(outbox.takeActions().published.map(\.topic) == ["badged/ana/host/desktop/ch/mail/state"])
  }

  @Test func aChannelNoLongerSharedIsReleased() {
    var (owner, announcer) = Self.owner(meshConfig(share: "ci*", homeAssistant: true))
    var outbox = MeshOutbox()
    let ours = ownerState("desktop", count: 1, claimed: partTime.wallMs - 60_000)
    _ = owner.stateHeard(
      name("mail"), ours, from: "desktop", local: nil, links: links(), at: partTime, announcer: &announcer,
      into: &outbox)
    let actions = outbox.takeActions()
    #expect(
      actions.published.map(\.topic) == [
        HomeAssistant(topics: Self.topics).sensorTopic(name("mail")), "badged/ana/host/desktop/ch/mail/state",
      ])
    #expect(actions.published.allSatisfy { $0.payload.isEmpty && $0.retain })
    #expect(actions.logged == ["info: Stopped sharing mail: no longer in [mqtt] share."])
    #expect(owner.claims.held.isEmpty)
  }
}

extension ChannelState {
  func with(seq: UInt64) -> ChannelState {
    var state = self
    state.figures.seq = seq
    return state
  }
}
