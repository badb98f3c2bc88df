import BadgeCore
import Testing

@testable import BadgeMesh

/// Home Assistant's announcements alone: each config once a connection, again after its birth.
@Suite struct HomeAssistantAnnouncerTests {
  static let topics = MeshTopics(prefix: "badged/ana", host: "desktop")
  static let assistant = HomeAssistant(topics: topics)

  @Test func eachConfigGoesOnceAConnection() {
    var announcer = HomeAssistantAnnouncer(
      config: meshConfig(dnd: .shared, homeAssistant: true), topics: Self.topics)
    var outbox = MeshOutbox()
    announcer.announceAll([name("ci"), name("mail")], into: &outbox)
    #expect(
      outbox.takeActions().published.map(\.topic) == [
        Self.assistant.sensorTopic(name("ci")), Self.assistant.sensorTopic(name("mail")), Self.assistant.switchTopic,
      ])
    announcer.announce(name("mail"), into: &outbox)
    announcer.announceAll([name("ci"), name("mail")], into: &outbox)
    #expect(outbox.takeActions().isEmpty)
    announcer.reset()
    announcer.announce(name("mail"), into: &outbox)
    #expect(outbox.takeActions().published.map(\.topic) == [Self.assistant.sensorTopic(name("mail"))])
  }

  @Test func aChannelGivenUpIsEmptiedAndOneGivenWayOnOnlyIfAnnounced() {
    var announcer = HomeAssistantAnnouncer(config: meshConfig(homeAssistant: true), topics: Self.topics)
    var outbox = MeshOutbox()
    announcer.withdrawIfAnnounced(name("mail"), into: &outbox)
    #expect(outbox.takeActions().isEmpty)
    announcer.announce(name("mail"), into: &outbox)
    _ = outbox.takeActions()
    announcer.withdrawIfAnnounced(name("mail"), into: &outbox)
    let emptied = [MeshMessage(topic: Self.assistant.sensorTopic(name("mail")), payload: [], retain: true)]
    #expect(outbox.takeActions().published == emptied)
    announcer.withdraw(name("mail"), into: &outbox)
    #expect(outbox.takeActions().published == emptied)
  }

  @Test func homeAssistantsBirthSendsEverythingAgainAfterTheDelay() {
    var announcer = HomeAssistantAnnouncer(config: meshConfig(homeAssistant: true), topics: Self.topics)
    var outbox = MeshOutbox()
    announcer.announceAll([name("mail")], into: &outbox)
    _ = outbox.takeActions()
    announcer.statusHeard(Array("offline".utf8), synced: true, at: partTime)
    announcer.statusHeard(Array("online".utf8), synced: false, at: partTime)
    #expect(announcer.nextDeadline == nil)
    announcer.statusHeard(Array("online".utf8), synced: true, at: partTime)
    let due = partTime.monotonic + Self.assistant.birthDelay
    #expect(announcer.nextDeadline == due)
    var time = partTime
    time.monotonic = due - 1
    announcer.tick(at: time, held: { [name("mail")] }, into: &outbox)
    #expect(outbox.takeActions().isEmpty)
    time.monotonic = due
    announcer.tick(at: time, held: { [name("mail")] }, into: &outbox)
    // Without `dnd = shared` the switch's config is emptied.
    #expect(
      outbox.takeActions().published.map { "\($0.topic) \($0.payload.count)" } == [
        "\(Self.assistant.sensorTopic(name("mail"))) \(Self.assistant.sensorConfig(name("mail")).count)",
        "\(Self.assistant.switchTopic) 0",
      ])
    #expect(announcer.nextDeadline == nil)
  }

  @Test func disabledItSendsNothing() {
    var announcer = HomeAssistantAnnouncer(config: meshConfig(), topics: Self.topics)
    var outbox = MeshOutbox()
    announcer.announceAll([name("mail")], into: &outbox)
    announcer.withdraw(name("mail"), into: &outbox)
    announcer.statusHeard(Array("online".utf8), synced: true, at: partTime)
    #expect(outbox.takeActions().isEmpty && announcer.nextDeadline == nil)
  }
}
