import Foundation
import TestSupport
import Testing

/// Home Assistant's MQTT discovery end to end: the built `badged` and `badged-mqtt` (with
/// `homeassistant = yes` and `dnd = shared`) against a real mosquitto. The retained configs are
/// read back from the broker, checked field by field and by Home Assistant's own schemas
/// (Tests/Tools/ha-discovery-check, which a broken copy fails), sent again when Home Assistant
/// says it started, and emptied for a channel that is no longer shared.
@Suite struct HomeAssistantDiscoveryTests {
  static let node = "badged_ana_desktop_a3358fda"
  static let mailConfig = "homeassistant/sensor/\(node)/mail/config"
  /// `app:org.telegram.desktop`, whose `:` and `.` Home Assistant does not take in an id.
  static let appConfig = "homeassistant/sensor/\(node)/app_org_telegram_desktop_e4076f17/config"
  static let switchConfig = "homeassistant/switch/\(node)/dnd/config"
  static let appState = "badged/ana/host/desktop/ch/app:org.telegram.desktop/state"

  @Test func theConfigsAreRetainedResentWhenHomeAssistantStartsAndRemovedWhenNoLongerShared() throws {
    let checker = try DiscoveryChecker()
    let broker = try Broker()
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    _ = try client.request("INCR mail 3")
    _ = try client.request("INCR app:org.telegram.desktop")
    let live = try broker.subscriber(["homeassistant/#", "badged/ana/#"])
    var (bridge, log) = try Self.startBridge(broker, daemon, share: "mail app:org.telegram.desktop")
    let all = [Self.mailConfig, Self.appConfig, Self.switchConfig]
    #expect(
      waitUntil { all.allSatisfy { topic in live.lines.contains { $0.hasPrefix(topic + "|") } } },
      "\(BridgeProgramTests.text(log))")
    // Do-not-disturb, never changed yet, is off on the switch from the start: as made at the
    // first millisecond, so that any real change wins over it.
    // The subscriber may take its subscription after the bridge published it (mosquitto_sub
    // does not say when it is subscribed): then it comes as the retained message. Either way
    // it is the same state.
    let neverChanged = #"{"on":false,"until":0,"at":1,"host":"desktop"}"#
    #expect(
      live.wait { ["0", "1"].map { "badged/ana/host/desktop/dnd|\($0)|" + neverChanged }.contains($0) }, "\(live.lines)"
    )

    // What a Home Assistant that starts now reads: exactly these configs, pointing at retained
    // states and statuses that are there.
    let retained = try broker.retained(["homeassistant/#", "badged/ana/#"])
    let configs = retained.filter { $0.hasPrefix("homeassistant/") }
    #expect(retained.filter { $0.topic == "badged/ana/host/desktop/dnd" }.map(\.payload) == [neverChanged])
    #expect(configs.map(\.topic).sorted() == all.sorted())
    let mailPayload = try #require(configs.first { $0.topic == Self.mailConfig }).payload
    // docs/MQTT.md shows this very config.
    let documentation = try String(contentsOfFile: Repository.path("docs/MQTT.md"), encoding: .utf8)
    #expect(documentation.contains("\n  \(mailPayload)\n"))
    let mail = RetainedMessage(topic: Self.mailConfig, payload: mailPayload).json
    #expect(mail["name"] as? String == "mail")
    #expect(mail["unique_id"] as? String == "\(Self.node)_mail")
    #expect(mail["state_topic"] as? String == "badged/ana/host/desktop/ch/mail/state")
    #expect(mail["value_template"] as? String == "{{ value_json.count }}")
    let availability = mail["availability"] as? [[String: String]]
    #expect(availability?.map { $0["topic"] } == ["badged/ana/host/desktop/status"])
    #expect(availability?.first?["payload_available"] == "online")
    #expect(availability?.first?["payload_not_available"] == "offline")
    let device = mail["device"] as? [String: Any]
    #expect(device?["identifiers"] as? [String] == [Self.node] && device?["name"] as? String == "badged on desktop")
    let app = try #require(configs.first { $0.topic == Self.appConfig }).json
    #expect(app["name"] as? String == "app:org.telegram.desktop")
    #expect(app["unique_id"] as? String == "\(Self.node)_app_org_telegram_desktop_e4076f17")
    #expect(app["state_topic"] as? String == Self.appState)
    #expect((app["device"] as? [String: Any])?["identifiers"] as? [String] == [Self.node])
    let dnd = try #require(configs.first { $0.topic == Self.switchConfig }).json
    #expect(dnd["unique_id"] as? String == "\(Self.node)_dnd")
    #expect(dnd["state_topic"] as? String == "badged/ana/host/desktop/dnd")
    #expect(dnd["command_topic"] as? String == "badged/ana/dnd/set")
    #expect(dnd["value_template"] as? String == "{{ 'ON' if value_json.on else 'OFF' }}")
    #expect(
      ["payload_on", "payload_off", "state_on", "state_off"].map { dnd[$0] as? String } == ["ON", "OFF", "ON", "OFF"])
    #expect((dnd["availability"] as? [[String: String]])?.map { $0["topic"] } == ["badged/ana/host/desktop/status"])
    #expect(retained.first { $0.topic == "badged/ana/host/desktop/status" }?.payload == "online")
    #expect(retained.first { $0.topic == "badged/ana/host/desktop/ch/mail/state" }?.json["count"] as? Int == 3)
    #expect(retained.first { $0.topic == Self.appState }?.json["count"] as? Int == 1)

    // Home Assistant's own schemas take every config, and refuse a broken copy.
    let checked = try checker.check(configs)
    #expect(checked.status == 0, "\(checked.stderr)")
    #expect(checked.lines == configs.map { "ok \($0.topic)" })
    let broken = configs.map {
      $0.topic == Self.mailConfig
        ? RetainedMessage(
          topic: $0.topic,
          payload: $0.payload.replacingOccurrences(
            of: #""state_topic":"badged/ana/host/desktop/ch/mail/state","#, with: ""))
        : $0
    }
    #expect(broken.map(\.payload) != configs.map(\.payload))
    let refused = try checker.check(broken)
    #expect(refused.status == 1)
    #expect(
      refused.lines
        == broken.map {
          $0.topic == Self.mailConfig
            ? "invalid \($0.topic): required key not provided @ data['state_topic']" : "ok \($0.topic)"
        })

    // The switch works as Home Assistant drives it: `ON` to its command topic turns
    // do-not-disturb on, and its state topic says so. The change is this machine's own, so
    // its line carries when it was made and no other machine's name.
    let since = wallMilliseconds()
    try broker.publish("badged/ana/dnd/set", "ON")
    var line: String?
    #expect(
      try waitUntil {
        line = try client.request("DND").first
        return line?.hasPrefix("STATE * dnd=1 left=0 ") == true
      })
    #expect(line == "STATE * dnd=1 left=0 at=\(try dndStamp(line, since: since))")
    #expect(live.wait { $0.hasPrefix("badged/ana/host/desktop/dnd|") && $0.contains(#""on":true"#) })

    // Home Assistant's birth message: every config again, the same.
    let before = all.map { topic in live.lines.filter { $0.hasPrefix(topic + "|") }.count }
    try broker.publish("homeassistant/status", "online")
    #expect(
      waitUntil {
        zip(all, before).allSatisfy { topic, count in live.lines.filter { $0.hasPrefix(topic + "|") }.count == count + 1
        }
      })
    for config in configs {
      #expect(live.lines.last { $0.hasPrefix(config.topic + "|") } == "\(config.topic)|0|\(config.payload)")
    }

    // Started again without the channel in `share` and with do-not-disturb its own: the
    // channel's config and state emptied, and the switch's config; the other channel's kept.
    bridge.signal(SIGTERM)
    #expect(bridge.wait() == 0)
    (bridge, log) = try Self.startBridge(broker, daemon, share: "mail", dnd: "local")
    #expect(live.wait { $0 == "\(Self.appConfig)|0|" }, "\(BridgeProgramTests.text(log))")
    #expect(live.wait { $0 == "\(Self.appState)|0|" })
    #expect(live.wait { $0 == "\(Self.switchConfig)|0|" })
    let after = try broker.retained(["homeassistant/#"])
    #expect(after.map(\.topic) == [Self.mailConfig])
    let rechecked = try checker.check(after)
    #expect(rechecked.status == 0 && rechecked.lines == after.map { "ok \($0.topic)" })
    bridge.signal(SIGTERM)
    #expect(bridge.wait() == 0)
  }

  /// `desktop`'s bridge to `daemon`, sharing `share`, with Home Assistant discovery and `dnd`;
  /// its log's path.
  static func startBridge(_ broker: Broker, _ daemon: DaemonProcess, share: String, dnd: String = "shared") throws
    -> (Child, String)
  {
    let config = try BridgeProgramTests.config(broker, share: share, extra: "dnd = \(dnd)\nhomeassistant = yes\n")
    return try BridgeProgramTests.start(broker, config: config, socket: daemon.socket)
  }
}

/// A message as `mosquitto_sub -F '%t %p'` prints it.
struct RetainedMessage: Equatable {
  var topic: String
  var payload: String

  var line: String { "\(topic) \(payload)" }

  /// The payload as a JSON object (empty when it is none).
  var json: [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(payload.utf8))) as? [String: Any] ?? [:]
  }

  func hasPrefix(_ prefix: String) -> Bool { topic.hasPrefix(prefix) }
}

extension Broker {
  /// The retained messages under `filters` now. `mosquitto_sub --retained-only` prints them
  /// and ends at the first message that is not retained: a marker, published (again, until it
  /// ends) once it has subscribed, which the broker sends only after every retained message of
  /// the subscription.
  func retained(_ filters: [String], as user: String = "desktop") throws -> [RetainedMessage] {
    let marker = "homeassistant/badged-test/end"
    let output = folder.file("retained-\(UUID().uuidString.prefix(6)).out")
    var arguments = ["mosquitto_sub", "--cafile", caFile, "-h", "localhost", "-p", String(port), "-u", user]
    arguments += ["-P", Broker.passwords[user]!, "-V", "mqttv5", "-q", "1", "--retained-only", "-F", "%t %p"]
    for filter in filters + [marker] { arguments += ["-t", filter] }
    let child = try Child(arguments, environment: Child.environment(), stdout: .file(output), stderr: .file(output))
    var ended = false
    for _ in 0..<100 where !ended {
      try publish(marker, "end", as: user)
      ended = waitUntil(timeout: 0.2) { !child.isRunning }
    }
    guard ended else {
      child.signal(SIGTERM)
      child.wait()
      throw TestFailure("mosquitto_sub --retained-only did not end at the marker")
    }
    child.wait()
    let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map { line in
      let topic = line.prefix { $0 != " " }
      return RetainedMessage(topic: String(topic), payload: String(line.dropFirst(topic.count + 1)))
    }
  }
}

/// Tests/Tools/ha-discovery-check in Home Assistant's venv (`HomeAssistantVenv`).
struct DiscoveryChecker {
  let python: String

  init() throws {
    python = try HomeAssistantVenv.python()
  }

  struct Result {
    let status: Int32
    let lines: [String]
    let stderr: String
  }

  func check(_ messages: [RetainedMessage]) throws -> Result {
    let folder = try TemporaryFolder()
    let input = try folder.write("configs", messages.map { $0.line + "\n" }.joined())
    let result = try run(python, [Repository.path("Tests/Tools/ha-discovery-check"), input])
    return Result(
      status: result.status, lines: result.stdout.split(separator: "\n").map(String.init), stderr: result.stderr)
  }
}
