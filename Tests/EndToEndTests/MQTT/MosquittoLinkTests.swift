import BadgeMesh
import BadgeMosquitto
import Foundation
import Testing

/// badged-mqtt's link to the broker (`MosquittoSession`: libmosquitto, non-threaded, on an
/// sd-event loop) against Debian's mosquitto with TLS, passwords and an ACL.
@Suite struct MosquittoLinkTests {
  /// desktop, connected and subscribed to every channel's commands, its subscription in force.
  static func listeningToCommands(_ driver: LinkDriver) throws -> MosquittoSession {
    let session = try driver.session("desktop", driver.options("desktop"))
    #expect(driver.connect(session) == "desktop connected")
    session.subscribe(["badged/ana/ch/+/cmd"])
    #expect(driver.sync(session, through: "desktop", topic: "badged/ana/ch/sync/cmd"))
    return session
  }

  @Test func itConnectsWithMQTT5AndTheBrokerKeepsItsSession() throws {
    let broker = try Broker()
    let driver = try LinkDriver(broker: broker)
    let options = driver.options("desktop")
    let session = try driver.session("desktop", options)
    #expect(driver.connect(session) == "desktop connected")
    // MQTT 5 (p5), clean start off (c0), the keepalive asked for (k30).
    #expect(broker.log.contains("as \(options.clientID) (p5, c0, k30, u'desktop')"), "\(broker.log)")
    session.disconnect()
    #expect(driver.connect(session) == "desktop connected (session present)")
  }

  @Test func messagesCarryTheirResponseTopicAndCorrelationData() throws {
    let broker = try Broker()
    let driver = try LinkDriver(broker: broker)
    let owner = try driver.session("desktop", driver.options("desktop"))
    let mirror = try driver.session("laptop", driver.options("laptop"))
    #expect(driver.connect(owner) == "desktop connected")
    #expect(driver.connect(mirror) == "laptop connected")
    owner.subscribe(["badged/ana/ch/+/cmd"])
    #expect(driver.sync(owner, through: "desktop", topic: "badged/ana/ch/sync/cmd"))
    let command = MeshMessage(
      topic: "badged/ana/ch/mail/cmd", payload: Array(#"{"op":"clear","upto":17,"id":"laptop:1:1"}"#.utf8),
      retain: false,
      responseTopic: "badged/ana/host/desktop/reply/laptop", correlation: Array("laptop:1:1".utf8), expirySeconds: 60)
    #expect(mirror.publish(command))
    #expect(driver.run { driver.messages["desktop"]?.count == 2 })
    #expect(
      driver.messages["desktop"]?.last
        == IncomingMessage(
          topic: "badged/ana/ch/mail/cmd", payload: command.payload,
          responseTopic: "badged/ana/host/desktop/reply/laptop",
          correlation: Array("laptop:1:1".utf8)))
  }

  @Test func aRetainedBirthAndTheLastWillAreWhatOthersSee() throws {
    let broker = try Broker()
    let driver = try LinkDriver(broker: broker)
    let desktop = try driver.session("desktop", driver.options("desktop"))
    #expect(driver.connect(desktop) == "desktop connected")
    #expect(
      desktop.publish(MeshMessage(topic: "badged/ana/host/desktop/status", payload: Array("online".utf8), retain: true))
    )
    let watcher = try broker.subscriber(["badged/ana/host/+/status"], as: "phone")
    #expect(watcher.wait { $0 == "badged/ana/host/desktop/status|1|online" }, "\(watcher.lines)")
    desktop.disconnect()
    #expect(watcher.wait { $0 == "badged/ana/host/desktop/status|0|offline" }, "\(watcher.lines)")
    // Retained: a newcomer reads it at once.
    let newcomer = try broker.subscriber(["badged/ana/host/desktop/status"], as: "laptop")
    #expect(newcomer.wait { $0 == "badged/ana/host/desktop/status|1|offline" }, "\(newcomer.lines)")
  }

  @Test func aWrongPasswordIsRefusedAsCredentials() throws {
    let broker = try Broker()
    let driver = try LinkDriver(broker: broker)
    let session = try driver.session("desktop", driver.options("desktop") { $0.password = "wrong" })
    #expect(driver.connect(session) == "desktop failed: credentials(\"Not authorized\")")
    let stranger = try driver.session("nobody", driver.options("desktop") { $0.username = "nobody" })
    #expect(driver.connect(stranger) == "nobody failed: credentials(\"Not authorized\")")
    #expect(!session.isConnected)
  }

  @Test func aBrokerCertificateFromAnotherCAIsRefused() throws {
    let broker = try Broker()
    let driver = try LinkDriver(broker: broker)
    let session = try driver.session("desktop", driver.options("desktop") { $0.tls?.caFile = broker.otherCAFile })
    #expect(driver.connect(session) == "desktop failed: certificate(\"certificate verify failed\")")
    #expect(!broker.log.contains("as link-test-desktop"))
  }

  @Test func theBrokersNameIsChecked() throws {
    // The certificate names localhost; 127.0.0.1 is the same broker under another name.
    let broker = try Broker()
    let driver = try LinkDriver(broker: broker)
    let session = try driver.session("desktop", driver.options("desktop") { $0.host = "127.0.0.1" })
    let outcome = driver.connect(session) ?? ""
    #expect(
      outcome.hasPrefix("desktop failed: certificate(") && outcome.contains("host name verification failed"),
      "\(outcome)")
  }

  @Test func aPayloadOverTheMaximumPacketSizeNeverArrives() throws {
    let broker = try Broker()
    let driver = try LinkDriver(broker: broker)
    let session = try Self.listeningToCommands(driver)
    try broker.publish("badged/ana/ch/mail/cmd", String(repeating: "x", count: 1 << 20), as: "laptop")
    try broker.publish("badged/ana/ch/mail/cmd", "after", as: "laptop")
    #expect(driver.run { driver.events.last == "desktop message badged/ana/ch/mail/cmd: after" })
    #expect(driver.messages["desktop"]?.map(\.payload.count) == [13, 5])
    #expect(session.isConnected)
  }

  @Test func theReadOnlyPhonesCommandsAreDroppedByTheACL() throws {
    let broker = try Broker()
    let driver = try LinkDriver(broker: broker)
    let session = try Self.listeningToCommands(driver)
    try broker.publish("badged/ana/ch/mail/cmd", #"{"op":"clear"}"#, as: "phone")
    try broker.publish("badged/ana/ch/mail/cmd", "after", as: "laptop")
    #expect(driver.run { driver.events.last == "desktop message badged/ana/ch/mail/cmd: after" })
    #expect(driver.messages["desktop"]?.count == 2)
    #expect(session.isConnected)
  }

  @Test func theKeepaliveNoticesABrokerThatStoppedAnswering() throws {
    let broker = try Broker()
    let driver = try LinkDriver(broker: broker)
    let session = try driver.session("desktop", driver.options("desktop") { $0.keepaliveSeconds = 5 })
    #expect(driver.connect(session) == "desktop connected")
    broker.freeze()
    defer { broker.thaw() }
    // A ping after 5 s without traffic, unanswered for another 5 s.
    #expect(
      driver.run(timeout: 15) { driver.events.last == "desktop lost: lost(\"no answer within the keepalive\")" },
      "\(driver.events)")
    #expect(!session.isConnected)
  }

  @Test func aBrokerRestartedWithoutPersistenceIsASessionLostAndANewOne() throws {
    let broker = try Broker()
    let driver = try LinkDriver(broker: broker)
    let session = try driver.session("desktop", driver.options("desktop"))
    #expect(driver.connect(session) == "desktop connected")
    broker.stop()
    #expect(driver.run { driver.events.last?.hasPrefix("desktop lost: ") == true }, "\(driver.events)")
    try broker.start(keepPort: true)
    #expect(driver.connect(session) == "desktop connected")
  }

  @Test func nothingListeningIsUnreachable() throws {
    let broker = try Broker()
    broker.stop()
    let driver = try LinkDriver(broker: broker)
    let session = try driver.session("desktop", driver.options("desktop"))
    #expect(driver.connect(session) == "desktop failed: unreachable(\"Connection refused\")")
    let nameless = try driver.session("nameless", driver.options("desktop") { $0.host = "no-such-host.invalid" })
    #expect(
      driver.connect(nameless)?.hasPrefix("nameless failed: unreachable(\"cannot resolve the host name: ") == true)
  }
}
