import BadgeConfig
import BadgeCore

extension MeshConfig {
  /// The section's name in the config file.
  public static let section = "mqtt"

  /// Builds the bridge's config from the entries of a config file: the `[mqtt]` section's, the
  /// others being the daemon's.
  ///
  /// - Throws: `ConfigError` naming the first entry that is not accepted (`file:line: reason`),
  ///   or the file alone when the section or its `broker` is missing.
  public static func parse(_ entries: [ConfigEntry], file: String, defaults: Defaults) throws(ConfigError) -> MeshConfig
  {
    var values: [Key: (value: String, line: Int)] = [:]
    for entry in entries where entry.section == section {
      guard let key = Key(rawValue: entry.key) else {
        throw ConfigError(
          file: file, line: entry.line,
          reason:
            "Unknown key '\(entry.key)' in [\(section)]; expected one of "
            + "\(Key.allCases.map(\.rawValue).joined(separator: ", "))"
        )
      }
      values[key] = (entry.value, entry.line)
    }
    guard let brokerEntry = values[.broker] else {
      throw ConfigError(
        file: file, line: 0,
        reason: values.isEmpty
          ? "No [\(section)] section; badged-mqtt needs at least 'broker = mqtts://host:8883' in it"
          : "[\(section)] has no broker; write 'broker = mqtts://host:8883'")
    }
    func fail(_ key: Key, _ reason: String) -> ConfigError {
      let entry = values[key]!
      return ConfigError(
        file: file, line: entry.line, reason: "Invalid value '\(entry.value)' for \(key.rawValue): \(reason)")
    }

    let broker: BrokerAddress
    do throws(BrokerAddress.InvalidBroker) {
      broker = try BrokerAddress(brokerEntry.value)
    } catch {
      throw fail(.broker, error.reason)
    }
    let host = values[.host]?.value ?? defaults.hostName
    guard isHostName(host) else {
      if values[.host] != nil { throw fail(.host, hostRule) }
      throw ConfigError(
        file: file, line: brokerEntry.line,
        reason: "This machine's name '\(host)' cannot name it in topics (\(hostRule)); set 'host = …' in [\(section)]")
    }
    let prefix = values[.prefix]?.value ?? "badged/\(defaults.userName)"
    guard isPrefix(prefix) else {
      if values[.prefix] != nil { throw fail(.prefix, prefixRule) }
      throw ConfigError(
        file: file, line: brokerEntry.line,
        reason: "The default prefix '\(prefix)' is not a topic prefix (\(prefixRule)); set 'prefix = …' in [\(section)]"
      )
    }

    var config = MeshConfig(broker: broker, host: host, prefix: prefix, file: file)
    config.lines = values.mapValues(\.line)
    // In file order, so that the first bad line is the one reported.
    for (key, entry) in values.sorted(by: { $0.value.line < $1.value.line }) {
      do throws(InvalidValue) {
        try config.apply(key, entry.value)
      } catch {
        throw fail(key, error.reason)
      }
    }
    try config.checkTogether(values, fail)
    return config
  }

  /// Why a value was refused, phrased to follow "Invalid value 'x' for key: ".
  struct InvalidValue: Error {
    let reason: String
  }

  static let hostRule = "1-64 characters from A-Z a-z 0-9 . _ - starting with a letter or digit"
  static let prefixRule =
    "topic levels separated by '/', none empty, without '+', '#' or a leading '$', at most 128 bytes"

  /// Applies the value of one key that stands on its own (`broker`, `host` and `prefix` are read
  /// before, `tls` is checked with the broker).
  private mutating func apply(_ key: Key, _ value: String) throws(InvalidValue) {
    func path() throws(InvalidValue) -> String {
      guard value.hasPrefix("/") else { throw InvalidValue(reason: "expected an absolute path") }
      return value
    }
    /// The daemon's readers of yes/no, numbers and words, so both read values alike.
    func shared<T>(_ read: () throws(SettingKey.InvalidValue) -> T) throws(InvalidValue) -> T {
      do throws(SettingKey.InvalidValue) { return try read() } catch { throw InvalidValue(reason: error.reason) }
    }
    switch key {
    case .broker, .host, .prefix: return
    case .tls: _ = try shared { () throws(SettingKey.InvalidValue) in try SettingKey.boolean(value) }
    case .username:
      guard !value.isEmpty, value.utf8.count <= 256, !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
        throw InvalidValue(reason: "expected 1-256 printable characters")
      }
      username = value
    case .passwordFile: passwordFile = try path()
    case .caFile: caFile = try path()
    case .certFile: certFile = try path()
    case .keyFile: keyFile = try path()
    case .share: share = try shared { () throws(SettingKey.InvalidValue) in try SettingKey.patterns(value) }
    case .mirror: mirror = try shared { () throws(SettingKey.InvalidValue) in try SettingKey.patterns(value) }
    case .dnd: dnd = try shared { () throws(SettingKey.InvalidValue) in try SettingKey.word(value) }
    case .homeAssistant:
      homeAssistant = try shared { () throws(SettingKey.InvalidValue) in try SettingKey.boolean(value) }
    case .keepaliveSeconds:
      keepaliveSeconds = try shared { () throws(SettingKey.InvalidValue) in
        try SettingKey.integer(value, in: MeshConfig.keepaliveRange)
      }
    }
  }

  /// The rules between keys: TLS as the broker's URL says it and `tls` agrees, plain MQTT off
  /// this machine only when written out, a password with a user, a certificate with its key.
  private func checkTogether(
    _ values: [Key: (value: String, line: Int)], _ fail: (Key, String) -> ConfigError
  ) throws(ConfigError) {
    let tls = values[.tls].flatMap { try? SettingKey.boolean($0.value) }
    if broker.tls && tls == false {
      throw fail(.tls, "the broker is mqtts://; write mqtt:// to connect without TLS")
    }
    if !broker.tls {
      if tls == true { throw fail(.tls, "the broker is mqtt://; write mqtts:// to connect with TLS") }
      if tls == nil && !broker.isLoopback {
        throw fail(
          .broker,
          "plain mqtt:// sends the password and every count unencrypted; use mqtts://, or write 'tls = off' to "
            + "connect to a broker off this machine without TLS"
        )
      }
      for key in [Key.caFile, .certFile, .keyFile] where values[key] != nil {
        throw fail(key, "\(key.rawValue) needs an mqtts:// broker")
      }
    }
    if values[.passwordFile] != nil && username == nil {
      throw fail(.passwordFile, "a password needs 'username = …'")
    }
    if values[.certFile] != nil && keyFile == nil { throw fail(.certFile, "a client certificate needs 'key_file = …'") }
    if values[.keyFile] != nil && certFile == nil { throw fail(.keyFile, "a key needs 'cert_file = …'") }
  }
}
