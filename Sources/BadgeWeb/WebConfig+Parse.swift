import BadgeConfig
import BadgeCore
import Glibc

extension WebConfig {
  /// The section's name in the config file.
  public static let section = DaemonConfig.webSection

  /// Builds badged-web's config from the entries of a config file: the `[web]` section's, the
  /// others being the daemon's, the tray's and the rest. No section gives the defaults.
  ///
  /// Entries are taken in file order and the first fault is reported; a key given twice keeps
  /// its later value. Then the keys are checked together: `cert_file` and `key_file` both or
  /// neither (at the line of the one given), each readable; a non-loopback address without
  /// TLS only with `plaintext = yes` (at `listen`'s line).
  ///
  /// - Throws: `ConfigError` (`file:line: reason`) naming the first fault.
  public static func parse(_ entries: [ConfigEntry], file: String) throws(ConfigError) -> WebConfig {
    var config = WebConfig()
    let lines: [Key: Int] = try SectionEntries.apply(entries, section: section, file: file) {
      (key: Key, value: String) throws(SettingKey.InvalidValue) in try config.apply(key, value)
    }
    try config.checkTogether(lines: lines, file: file)
    return config
  }

  /// The checks across keys.
  private func checkTogether(lines: [Key: Int], file: String) throws(ConfigError) {
    switch (certFile, keyFile) {
    case (.some, nil):
      throw ConfigError(
        file: file, line: lines[.certFile] ?? 0, reason: "cert_file is given without key_file; give both or neither")
    case (nil, .some):
      throw ConfigError(
        file: file, line: lines[.keyFile] ?? 0, reason: "key_file is given without cert_file; give both or neither")
    case (.some(let cert), .some(let key)):
      for (name, path) in [(Key.certFile, cert), (Key.keyFile, key)] where access(path, R_OK) != 0 {
        throw ConfigError(
          file: file, line: lines[name] ?? 0, reason: "\(name.rawValue) '\(path)' cannot be read: \(errnoText())")
      }
    case (nil, nil): break
    }
    if !usesTLS && !plaintext, let open = listen.first(where: { !$0.isLoopback }) {
      throw ConfigError(
        file: file, line: lines[.listen] ?? 0,
        reason:
          "listen address \(open.authority) is reachable from other machines; give cert_file and key_file "
          + "for TLS, or plaintext = yes to serve it unencrypted")
    }
  }

  /// Applies one key's value.
  private mutating func apply(_ key: Key, _ value: String) throws(SettingKey.InvalidValue) {
    switch key {
    case .listen: listen = try WebConfig.listen(value)
    case .plaintext: plaintext = try SettingKey.boolean(value)
    case .certFile: certFile = try WebConfig.absolutePath(value)
    case .keyFile: keyFile = try WebConfig.absolutePath(value)
    case .allowOrigins: allowOrigins = try WebConfig.origins(value)
    case .publicURL: publicURL = try WebConfig.publicURL(value)
    case .tokensFile: tokensFile = try WebConfig.absolutePath(value)
    case .root: root = try WebConfig.absolutePath(value)
    case .keepalive: keepalive = try SettingKey.integer(value, in: WebConfig.keepaliveRange)
    case .maxClients: maxClients = try SettingKey.integer(value, in: WebConfig.maxClientsRange)
    }
  }

  /// `listen`: one address at least, none twice.
  static func listen(_ value: String) throws(SettingKey.InvalidValue) -> [ListenAddress] {
    var addresses: [ListenAddress] = []
    for word in value.split(separator: " ") {
      let address = try listenAddress(String(word))
      guard !addresses.contains(address) else {
        throw SettingKey.InvalidValue(reason: "'\(word)' is listed twice")
      }
      addresses.append(address)
    }
    guard !addresses.isEmpty else { throw SettingKey.InvalidValue(reason: "expected at least one address") }
    return addresses
  }

  /// `host:port` (an IPv4 address or `localhost`), `[v6]:port`, or `unix:/abs/path`.
  static func listenAddress(_ word: String) throws(SettingKey.InvalidValue) -> ListenAddress {
    let expected = "expected host:port, [v6]:port or unix:/absolute/path, not '\(word)'"
    if word.hasPrefix("unix:") {
      let path = String(word.dropFirst(5))
      guard path.hasPrefix("/"), path.utf8.count < 108 else {
        throw SettingKey.InvalidValue(reason: "a Unix socket needs an absolute path under 108 bytes, not '\(path)'")
      }
      return .unix(path: path)
    }
    guard let colon = word.lastIndex(of: ":") else { throw SettingKey.InvalidValue(reason: expected) }
    var host = String(word[..<colon])
    let portText = String(word[word.index(after: colon)...])
    let family: CInt
    if host.hasPrefix("[") && host.hasSuffix("]") {
      host = String(host.dropFirst().dropLast())
      family = AF_INET6
    } else {
      guard !host.contains(":") else { throw SettingKey.InvalidValue(reason: expected) }
      family = AF_INET
    }
    guard host == "localhost" && family == AF_INET || isAddress(host, family: family) else {
      throw SettingKey.InvalidValue(reason: expected)
    }
    guard let port = Int(portText), (1...65535).contains(port), portText.allSatisfy(\.isASCII) else {
      throw SettingKey.InvalidValue(reason: "expected a port from 1 to 65535 in '\(word)'")
    }
    return .tcp(host: host == "localhost" ? "127.0.0.1" : host, port: port)
  }

  /// Whether `host` is an IP address of `family`.
  static func isAddress(_ host: String, family: CInt) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 16)
    return inet_pton(family, host, &buffer) == 1
  }

  /// `allow_origins`: `scheme://host[:port]` each, `http` or `https`, no path, no `*`.
  static func origins(_ value: String) throws(SettingKey.InvalidValue) -> [String] {
    var origins: [String] = []
    for word in value.split(separator: " ").map(String.init) {
      guard word != "*", !word.contains("*") else {
        throw SettingKey.InvalidValue(reason: "'*' is not allowed; name each origin")
      }
      guard word.hasPrefix("http://") || word.hasPrefix("https://"),
        let authority = authority(ofURL: word), !authority.isEmpty,
        word.utf8.count == word.prefix { $0 != "/" }.utf8.count + 2 + authority.utf8.count
      else {
        throw SettingKey.InvalidValue(
          reason: "expected an origin such as https://example.org:8443 (no path), not '\(word)'")
      }
      origins.append(word.lowercased())
    }
    return origins
  }

  /// `public_url`: `http(s)://host…`, without a query.
  static func publicURL(_ value: String) throws(SettingKey.InvalidValue) -> String {
    guard value.hasPrefix("http://") || value.hasPrefix("https://"),
      let authority = authority(ofURL: value), !authority.isEmpty, !value.contains(" ")
    else {
      throw SettingKey.InvalidValue(reason: "expected an http:// or https:// URL")
    }
    guard !value.contains("?"), !value.contains("#") else {
      throw SettingKey.InvalidValue(reason: "a query or fragment is not allowed")
    }
    return value.hasSuffix("/") ? String(value.dropLast()) : value
  }

  /// An absolute path.
  static func absolutePath(_ value: String) throws(SettingKey.InvalidValue) -> String {
    guard value.hasPrefix("/") else { throw SettingKey.InvalidValue(reason: "expected an absolute path") }
    return value
  }

  private func errnoText() -> String { String(cString: strerror(errno)) }
}
