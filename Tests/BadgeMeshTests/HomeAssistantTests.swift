import BadgeCore
import BadgeMesh
import Testing

/// Home Assistant discovery: ids it accepts, and configs with the fields of its MQTT sensor and
/// switch documentation, exactly.
@Suite struct HomeAssistantTests {
  let assistant = HomeAssistant(topics: MeshTopics(prefix: "badged/ana", host: "desktop"), version: "0.1.0")

  @Test func idsAreLowerCaseWordsWithAHashWhereTheNameLostSomething() {
    #expect(HomeAssistant.objectID("mail") == "mail")
    #expect(HomeAssistant.objectID("ci_nightly") == "ci_nightly")
    #expect(HomeAssistant.objectID("app:org.telegram.desktop") == "app_org_telegram_desktop_e4076f17")
    #expect(HomeAssistant.objectID("Mail").hasPrefix("_ail_") && HomeAssistant.objectID("Mail").utf8.count == 13)
    // Names that map to the same words still get different ids.
    #expect(HomeAssistant.objectID("a.b") != HomeAssistant.objectID("a:b"))
    for text in ["a.b", "A-B", "x:y.z", "badged/ana/desktop"] {
      #expect(
        HomeAssistant.objectID(text).utf8.allSatisfy {
          ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F
        })
    }
  }

  @Test func aSharedChannelIsASensor() {
    #expect(assistant.nodeID == "badged_ana_desktop_a3358fda")
    #expect(assistant.sensorTopic(name("mail")) == "homeassistant/sensor/badged_ana_desktop_a3358fda/mail/config")
    #expect(
      String(decoding: assistant.sensorConfig(name("mail")), as: UTF8.self)
        == #"{"name":"mail","unique_id":"badged_ana_desktop_a3358fda_mail","state_topic":"badged/ana/host/desktop/ch/mail/state","value_template":"{{ value_json.count }}","json_attributes_topic":"badged/ana/host/desktop/ch/mail/state","json_attributes_template":"{{ {'label': value_json.label, 'unseen': value_json.unseen, 'total': value_json.total, 'muted': value_json.muted, 'dot': value_json.dot, 'owner': value_json.owner} | tojson }}","state_class":"measurement","icon":"mdi:bell-badge","qos":1,"availability":[{"topic":"badged/ana/host/desktop/status","payload_available":"online","payload_not_available":"offline"}],"device":{"identifiers":["badged_ana_desktop_a3358fda"],"name":"badged on desktop","manufacturer":"badged","model":"badged-mqtt","sw_version":"0.1.0"},"origin":{"name":"badged-mqtt","sw_version":"0.1.0"}}"#
    )
  }

  @Test func theConfigsAreSentAgainAfterADelayOfTheMachines() {
    #expect(assistant.birthDelay == 418_000)
    let laptop = HomeAssistant(topics: MeshTopics(prefix: "badged/ana", host: "laptop"), version: "0.1.0")
    #expect(laptop.birthDelay != assistant.birthDelay && laptop.birthDelay < 1_000_000)
  }

  @Test func sharedDoNotDisturbIsASwitch() {
    #expect(assistant.switchTopic == "homeassistant/switch/badged_ana_desktop_a3358fda/dnd/config")
    #expect(
      String(decoding: assistant.switchConfig, as: UTF8.self)
        == #"{"name":"Do not disturb","unique_id":"badged_ana_desktop_a3358fda_dnd","state_topic":"badged/ana/host/desktop/dnd","value_template":"{{ 'ON' if value_json.on else 'OFF' }}","command_topic":"badged/ana/dnd/set","payload_on":"ON","payload_off":"OFF","state_on":"ON","state_off":"OFF","icon":"mdi:bell-off","qos":1,"availability":[{"topic":"badged/ana/host/desktop/status","payload_available":"online","payload_not_available":"offline"}],"device":{"identifiers":["badged_ana_desktop_a3358fda"],"name":"badged on desktop","manufacturer":"badged","model":"badged-mqtt","sw_version":"0.1.0"},"origin":{"name":"badged-mqtt","sw_version":"0.1.0"}}"#
    )
  }
}
