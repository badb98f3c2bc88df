import Foundation
import Testing

/// What Home Assistant shows of the bridge, with a real Home Assistant core (Tests/Tools/ha-core)
/// connected through its MQTT integration to a real mosquitto as the broker's `homeassistant`
/// account (it reads `badged/ana/#` and `homeassistant/#`, and writes only `badged/ana/dnd/set`
/// and its own status), beside machines running the built `badged` and `badged-mqtt` with
/// `homeassistant = yes` and `dnd = shared`.
///
/// This pins today's topics as Home Assistant sees them: a change of topics must keep it
/// passing. It needs Home Assistant's venv (scripts/install-deps --test, as CI runs it) and root
/// (network namespaces); without either the suite fails, saying why. One Home Assistant serves
/// the suite (`HomeAssistantStage`); each test has a machine and a channel of its own.
@Suite(.serialized, .homeAssistantStage) struct HomeAssistantCoreTests {
  static let settings = ["homeassistant = yes", "dnd = shared"]

  @Test func theSensorShowsTheCountWithinASecondWithItsAttributes() throws {
    let stage = try HomeAssistantStage.inScope()
    let desktop = try Machine("desktop", on: stage.network, share: "mail", settings: Self.settings)
    let sensor = "sensor.badged_on_desktop_mail"
    // Shared, and discovered, at 0: the sensor and the machine's switch, with their ids.
    try desktop.ctl(["incr", "mail"])
    try desktop.ctl(["clear", "mail"])
    try stage.waitFor(sensor, "0", from: desktop)
    let entities = try stage.core.entities().filter { $0.value.hasPrefix("badged_ana_desktop_a3358fda_") }
    #expect(
      entities == [
        sensor: "badged_ana_desktop_a3358fda_mail",
        "switch.badged_on_desktop_do_not_disturb": "badged_ana_desktop_a3358fda_dnd",
      ])

    // From the start of `badgectl incr` to Home Assistant's state, polled every 10 ms.
    let start = ContinuousClock.now
    try desktop.ctl(["incr", "mail", "3"])
    let left = Duration.seconds(1) - start.duration(to: .now)
    let shown = try stage.core.wait(sensor, for: "3", timeout: max(left / .seconds(1), 0.001))
    let latency = start.duration(to: .now)
    #expect(shown.milliseconds != nil, "the sensor was still \(shown.last) a second after badgectl incr began")
    #expect(latency < .seconds(1))
    print("Home Assistant: the sensor showed 3 \(Int(latency / .milliseconds(1))) ms after badgectl incr mail 3 began")

    // The state's fields the config names, with what Home Assistant adds; `total` counts the
    // one before the clear too.
    let attributes =
      #"{"dot":false,"friendly_name":"badged on desktop mail","icon":"mdi:bell-badge","#
      + #""label":"3","muted":false,"owner":"desktop","state_class":"measurement","total":4,"unseen":3}"#
    #expect(try stage.core.send("attributes \(sensor)") == attributes)
  }

  @Test func theSwitchDrivesDoNotDisturbAndShowsItsChanges() throws {
    let stage = try HomeAssistantStage.inScope()
    // A machine that owns no channel has the switch too.
    let laptop = try Machine("laptop", on: stage.network, settings: Self.settings)
    let toggle = "switch.badged_on_laptop_do_not_disturb"
    try laptop.ctl(["dnd", "off"])
    try stage.waitFor(toggle, "off", from: laptop)
    #expect(try stage.core.entities()[toggle] == "badged_ana_laptop_99aa91a2_dnd")

    // Home Assistant's switch turns it on and off here, as badgectl says…
    let changes = try laptop.watcher("nothing")
    for (service, state) in [("switch.turn_on", "on"), ("switch.turn_off", "off")] {
      try stage.core.call(service, toggle)
      try changes.waitFor("*", ["dnd": state == "on" ? "1" : "0"])
      #expect(try laptop.dnd() == state)
      try stage.waitFor(toggle, state, from: laptop)
    }
    // … and shows it turned on and off here.
    for state in ["on", "off"] {
      try laptop.ctl(["dnd", state])
      try stage.waitFor(toggle, state, from: laptop)
    }
  }

  @Test func theEntitiesAreUnavailableWhileTheBridgeIsStoppedAndComeBackWithTheCount() throws {
    let stage = try HomeAssistantStage.inScope()
    let server = try Machine("server", on: stage.network, share: "chat", settings: Self.settings)
    let sensor = "sensor.badged_on_server_chat"
    let toggle = "switch.badged_on_server_do_not_disturb"
    try server.ctl(["incr", "chat", "2"])
    try stage.waitFor(sensor, "2", from: server)
    try stage.waitForSwitch(toggle, of: server)

    // The bridge leaves the broker with its last will (offline) as it stops; the count moves
    // on meanwhile.
    #expect(server.stopBridge() == 0)
    try stage.waitFor(sensor, "unavailable", from: server)
    try stage.waitFor(toggle, "unavailable", from: server)

    try server.ctl(["incr", "chat", "3"])
    try server.startBridge()
    try stage.waitFor(sensor, "5", from: server)
    try stage.waitForSwitch(toggle, of: server)
    #expect(try stage.core.send("attributes \(sensor)").contains(#""total":5,"unseen":5}"#))
  }
}
