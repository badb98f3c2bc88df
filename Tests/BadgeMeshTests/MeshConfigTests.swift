import BadgeConfig
import BadgeCore
import BadgeMesh
import Testing

/// `MeshConfig.parse` over entries as the INI reader hands them out: the `[mqtt]` section's,
/// every other section left to the daemon.
@Suite struct MeshConfigTests {
  static let defaults = MeshConfig.Defaults(hostName: "desktop", userName: "ana")

  /// Entries of `[mqtt]`, from line 2 on, after a line of another section.
  static func parse(_ items: [(key: String, value: String)]) throws(ConfigError) -> MeshConfig {
    var entries = [ConfigEntry(section: "daemon", key: "pulse_ms", value: "not ours to check", line: 1)]
    for (index, item) in items.enumerated() {
      entries.append(ConfigEntry(section: "mqtt", key: item.key, value: item.value, line: index + 2))
    }
    return try MeshConfig.parse(entries, file: "badged.conf", defaults: defaults)
  }

  static func failure(_ items: [(key: String, value: String)]) -> String? {
    do {
      _ = try parse(items)
      return nil
    } catch {
      return error.description
    }
  }

  @Test func aBrokerAloneGivesTheDefaults() throws {
    let config = try Self.parse([("broker", "mqtts://broker.lan")])
    #expect(config.broker == BrokerAddress(tls: true, host: "broker.lan", port: 8883))
    #expect(config.host == "desktop")
    #expect(config.prefix == "badged/ana")
    #expect(config.share.isEmpty)
    #expect(config.mirror == [.all])
    #expect(config.dnd == .local)
    #expect(!config.homeAssistant)
    #expect(config.keepaliveSeconds == 30)
    #expect(config.username == nil && config.passwordFile == nil && config.caFile == nil)
  }

  @Test func everyKeyIsRead() throws {
    let config = try Self.parse([
      ("broker", "mqtts://[fd00::1]:9883"), ("host", "laptop"), ("prefix", "home/ana/badges"), ("username", "laptop"),
      ("password_file", "/home/ana/.config/badged/mqtt-password"), ("ca_file", "/etc/ssl/home-ca.pem"),
      ("cert_file", "/home/ana/laptop.pem"), ("key_file", "/home/ana/laptop.key"), ("share", "mail, ci*"),
      ("mirror", "ci* news"), ("dnd", "shared"), ("homeassistant", "yes"), ("keepalive_s", "10"), ("tls", "on"),
    ])
    #expect(config.broker == BrokerAddress(tls: true, host: "fd00::1", port: 9883))
    #expect(config.host == "laptop")
    #expect(config.prefix == "home/ana/badges")
    #expect(config.username == "laptop")
    #expect(config.passwordFile == "/home/ana/.config/badged/mqtt-password")
    #expect(config.caFile == "/etc/ssl/home-ca.pem")
    #expect(config.certFile == "/home/ana/laptop.pem" && config.keyFile == "/home/ana/laptop.key")
    #expect(config.share == [ChannelPattern("mail")!, ChannelPattern("ci*")!])
    #expect(config.mirror == [ChannelPattern("ci*")!, ChannelPattern("news")!])
    #expect(config.dnd == .shared)
    #expect(config.homeAssistant)
    #expect(config.keepaliveSeconds == 10)
    #expect(config.shares(name("ci-nightly")) && !config.shares(name("news")))
    #expect(config.mirrors(name("news")) && !config.mirrors(name("mail")))
    #expect(config.place(of: .caFile) == "badged.conf:7")
    #expect(config.place(of: .broker) == "badged.conf:2")
  }

  /// The recommended ACL lets an account publish only under its own name's subtree.
  @Test func anAccountNamedOtherThanTheHostIsWarnedAbout() {
    var config = meshConfig(host: "desktop")
    #expect(config.accountWarning == nil)
    config.username = "desktop"
    #expect(config.accountWarning == nil)
    config.username = "ana"
    #expect(
      config.accountWarning
        == "username ana is not this machine's host name (desktop): a broker with the recommended ACL lets an "
        + "account publish states and answers only under badged/ana/host/<its name>/, so this machine's would be "
        + "refused; name the account desktop, or set host = ana.")
  }

  @Test func anEmptyMirrorMirrorsNothing() throws {
    #expect(try Self.parse([("broker", "mqtt://localhost"), ("mirror", "")]).mirror.isEmpty)
  }

  @Test func withoutTheSectionTheBridgeSaysWhatItNeeds() {
    #expect(
      Self.failure([])
        == "badged.conf: No [mqtt] section; badged-mqtt needs at least 'broker = mqtts://host:8883' in it")
    #expect(
      Self.failure([("host", "laptop")]) == "badged.conf: [mqtt] has no broker; write 'broker = mqtts://host:8883'")
  }

  @Test func plainMQTTIsRefusedOffThisMachineUnlessTLSIsTurnedOff() throws {
    #expect(
      Self.failure([("broker", "mqtt://broker.lan")])
        == "badged.conf:2: Invalid value 'mqtt://broker.lan' for broker: plain mqtt:// sends the password and "
        + "every count unencrypted; use mqtts://, or write 'tls = off' to connect to a broker off this machine without TLS"
    )
    #expect(try Self.parse([("broker", "mqtt://broker.lan"), ("tls", "off")]).broker.tls == false)
    for loopback in ["mqtt://localhost", "mqtt://127.0.0.1:1883", "mqtt://127.8.9.10", "mqtt://[::1]:1883"] {
      #expect(try Self.parse([("broker", loopback)]).broker.isLoopback, "\(loopback)")
    }
  }

  @Test func tlsMustAgreeWithTheBrokersScheme() {
    #expect(
      Self.failure([("broker", "mqtts://broker.lan"), ("tls", "off")])
        == "badged.conf:3: Invalid value 'off' for tls: the broker is mqtts://; write mqtt:// to connect without TLS")
    #expect(
      Self.failure([("broker", "mqtt://localhost"), ("tls", "yes")])
        == "badged.conf:3: Invalid value 'yes' for tls: the broker is mqtt://; write mqtts:// to connect with TLS")
    #expect(
      Self.failure([("broker", "mqtt://localhost"), ("ca_file", "/ca.pem")])
        == "badged.conf:3: Invalid value '/ca.pem' for ca_file: ca_file needs an mqtts:// broker")
  }

  @Test func keysThatGoTogether() {
    #expect(
      Self.failure([("broker", "mqtts://b"), ("password_file", "/p")])
        == "badged.conf:3: Invalid value '/p' for password_file: a password needs 'username = …'")
    #expect(
      Self.failure([("broker", "mqtts://b"), ("cert_file", "/c.pem")])
        == "badged.conf:3: Invalid value '/c.pem' for cert_file: a client certificate needs 'key_file = …'")
    #expect(
      Self.failure([("broker", "mqtts://b"), ("key_file", "/c.key")])
        == "badged.conf:3: Invalid value '/c.key' for key_file: a key needs 'cert_file = …'")
  }

  @Test(arguments: [
    ("broker", "http://b", "expected mqtts://host[:port] or mqtt://host[:port]"),
    ("broker", "mqtts://", "'' is not a host name or address (letters, digits, '.' and '-'; nothing after :port)"),
    ("broker", "mqtts://user:pw@b", "the port must be a number from 1 to 65535"),
    (
      "broker", "mqtts://b/path",
      "'b/path' is not a host name or address (letters, digits, '.' and '-'; nothing after :port)"
    ),
    ("broker", "mqtts://b:0", "the port must be a number from 1 to 65535"),
    ("broker", "mqtts://b:65536", "the port must be a number from 1 to 65535"),
    ("broker", "mqtts://[fd00::1", "an IPv6 address needs its closing ']'"),
    ("broker", "mqtts://[nope]:1", "'nope' is not an IPv6 address"),
    ("host", "my laptop", "1-64 characters from A-Z a-z 0-9 . _ - starting with a letter or digit"),
    ("host", "a:b", "1-64 characters from A-Z a-z 0-9 . _ - starting with a letter or digit"),
    (
      "prefix", "badged/+/x",
      "topic levels separated by '/', none empty, without '+', '#' or a leading '$', at most 128 bytes"
    ),
    (
      "prefix", "$SYS/x",
      "topic levels separated by '/', none empty, without '+', '#' or a leading '$', at most 128 bytes"
    ),
    (
      "prefix", "badged//ana",
      "topic levels separated by '/', none empty, without '+', '#' or a leading '$', at most 128 bytes"
    ),
    (
      "prefix", "badged/ana/",
      "topic levels separated by '/', none empty, without '+', '#' or a leading '$', at most 128 bytes"
    ),
    ("password_file", "relative/path", "expected an absolute path"),
    (
      "share", "mail m@il",
      "'m@il' is not a channel name or glob (names are 1-64 characters from A-Z a-z 0-9 . _ - : starting with a "
        + "letter or digit, or * and ?)"
    ),
    ("dnd", "everywhere", "expected 'local' or 'shared'"),
    ("homeassistant", "maybe", "expected yes or no"),
    ("keepalive_s", "4", "expected a number from 5 to 3600"),
    ("keepalive_s", "ten", "expected a whole number"),
    ("tls", "sometimes", "expected yes or no"),
  ])
  func aBadValueIsRefusedWithItsLine(key: String, value: String, reason: String) {
    let items = key == "broker" ? [(key, value)] : [("broker", "mqtts://b"), (key, value)]
    let line = key == "broker" ? 2 : 3
    #expect(Self.failure(items) == "badged.conf:\(line): Invalid value '\(value)' for \(key): \(reason)")
  }

  @Test func anUnknownKeyNamesTheKeysThereAre() {
    #expect(
      Self.failure([("broker", "mqtts://b"), ("brokers", "x")])
        == "badged.conf:3: Unknown key 'brokers' in [mqtt]; expected one of broker, tls, host, prefix, username, "
        + "password_file, ca_file, cert_file, key_file, share, mirror, dnd, homeassistant, keepalive_s"
    )
  }

  @Test func theFirstBadLineIsTheOneReported() {
    #expect(
      Self.failure([("broker", "mqtts://b"), ("dnd", "x"), ("keepalive_s", "1")])?.hasPrefix("badged.conf:3:") == true)
  }

  @Test func aHostNameThatCannotNameThisMachineAsksForHost() {
    let entries = [ConfigEntry(section: "mqtt", key: "broker", value: "mqtts://b", line: 4)]
    do {
      _ = try MeshConfig.parse(entries, file: "c", defaults: .init(hostName: "ana's pc", userName: "ana"))
      Issue.record("accepted")
    } catch {
      #expect(
        error.description
          == "c:4: This machine's name 'ana's pc' cannot name it in topics (1-64 characters from A-Z a-z 0-9 . _ "
          + "- starting with a letter or digit); set 'host = …' in [mqtt]"
      )
    }
  }

  @Test func brokerURLsPrintAsTheyAreRead() throws {
    #expect(try BrokerAddress("mqtts://b").description == "mqtts://b:8883")
    #expect(try BrokerAddress("mqtt://b/").description == "mqtt://b:1883")
    #expect(try BrokerAddress("mqtts://[fd00::1]").description == "mqtts://[fd00::1]:8883")
    #expect(try !BrokerAddress("mqtts://localhost.example").isLoopback)
    #expect(try !BrokerAddress("mqtts://127.0.0.256").isLoopback)
  }
}
