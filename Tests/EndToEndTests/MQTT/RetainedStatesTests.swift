import BadgeMesh
import BadgeMosquitto
import Foundation
import Testing

/// A bridge back after more states changed than the broker queues for it. Subscribed to the
/// retained topics with QoS 0, as badged-mqtt is, it is sent every channel's latest state when
/// it subscribes again. (With QoS 1 the broker queues the changes while it is away, drops
/// those past `max_queued_messages`, and then, with its queue full, drops the retained states
/// it sends on the new subscription too: those channels would stay behind until they change.)
@Suite struct RetainedStatesTests {
  @Test func aMirrorAwayWhileMoreStatesChangedThanTheBrokerQueuesGetsEveryLatestStateBack() throws {
    let broker = try Broker(settings: ["max_queued_messages 5", "max_inflight_messages 5"])
    let driver = try LinkDriver(broker: broker)
    let owner = try driver.session("desktop", driver.options("desktop"))
    let mirror = try driver.session("laptop", driver.options("laptop"))
    let topics = MeshTopics(prefix: "badged/ana", host: "laptop")
    #expect(driver.connect(owner) == "desktop connected")
    owner.subscribe(["badged/ana/host/desktop/sync"])
    let channels = (0..<40).map { "c\($0)" }
    /// Every channel's state is `value`, retained, once the broker has taken them all.
    func publishEveryState(_ value: String) -> Bool {
      for channel in channels {
        owner.publish(
          MeshMessage(topic: "badged/ana/host/desktop/ch/\(channel)/state", payload: Array(value.utf8), retain: true))
      }
      return driver.sync(owner, through: "desktop", topic: "badged/ana/host/desktop/sync")
    }
    /// The latest state the mirror received of each channel.
    func latest() -> [String] {
      channels.map { channel in
        let topic = "badged/ana/host/desktop/ch/\(channel)/state"
        let last = driver.messages["laptop"]?.last { $0.topic == topic }
        return last.map { String(decoding: $0.payload, as: UTF8.self) } ?? "none"
      }
    }
    func subscribeAsTheBridgeDoes() {
      mirror.subscribe(topics.retainedSubscriptions(dndShared: false, homeAssistant: false), qos: 0)
      mirror.subscribe(topics.messageSubscriptions(dndShared: false), qos: 1)
    }

    #expect(publishEveryState("1"))
    #expect(driver.connect(mirror) == "laptop connected")
    subscribeAsTheBridgeDoes()
    #expect(driver.run { latest() == Array(repeating: "1", count: 40) }, "\(latest())")
    mirror.disconnect()
    #expect(publishEveryState("2"))
    #expect(driver.connect(mirror) == "laptop connected (session present)")
    subscribeAsTheBridgeDoes()
    #expect(driver.sync(mirror, through: "laptop", topic: topics.ownSync))
    #expect(latest() == Array(repeating: "2", count: 40))
  }
}
