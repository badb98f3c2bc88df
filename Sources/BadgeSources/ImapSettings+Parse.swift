import BadgeCore
import BadgeHooks

/// The values of a `kind = imap` section's own keys as its entries are read, before the rules
/// between them (`SectionReader` reads the keys every kind takes).
struct ImapKeys {
  typealias Invalid = SettingKey.InvalidValue

  var server: (host: String, port: Int, security: ImapSettings.Security)?
  var username: String?
  /// Each credential key given, by key: exactly one may be.
  var credentials: [String: ImapSettings.Credential] = [:]
  var mechanism: ImapSettings.OAuthMechanism?
  var folders: [String]?
  var caFile: String?
  var maxConnections = ImapSettings.defaultMaxConnections

  /// The credential keys, as a list in messages: `a, b, c or d`.
  static let credentialList =
    ImapSettings.credentialKeys.dropLast().joined(separator: ", ") + " or " + ImapSettings.credentialKeys.last!

  /// Reads one of the kind's own keys.
  mutating func read(_ key: String, _ value: String) throws(Invalid) {
    switch key {
    case "server": server = try ImapServer.parse(value)
    case "username":
      guard !value.isEmpty, !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
        throw Invalid(reason: "expected a user name without control characters")
      }
      username = value
    case "password_file": credentials[key] = .passwordFile(try SectionReader.path(value))
    case "password_command": credentials[key] = .passwordCommand(try SectionReader.command(value).words)
    case "oauth2_token_command":
      credentials[key] = .oauth2(command: try SectionReader.command(value).words, mechanism: .xoauth2)
    case "password_secret": credentials[key] = .secretService(try ImapKeys.attributes(value))
    case "oauth2_mechanism": mechanism = try SettingKey.word(value)
    case "folders":
      let globs = value.split(separator: ",").map { $0.trimmingCharacters(in: " \t") }.filter { !$0.isEmpty }
      guard !globs.isEmpty else { throw Invalid(reason: "expected folder names or globs separated by commas") }
      folders = globs
    case "ca_file": caFile = try SectionReader.path(value)
    case "max_connections": maxConnections = try SettingKey.integer(value, in: ImapSettings.maxConnectionsRange)
    default: return
    }
  }

  /// `attribute=value attribute=value`, split as a command's words (so a value may be quoted).
  static func attributes(_ value: String) throws(Invalid) -> [ImapSettings.SecretAttribute] {
    let expected = Invalid(reason: "expected attribute=value pairs separated by spaces, as secret-tool lookup takes")
    let words: [String]
    do throws(HookCommand.SplitError) {
      words = try HookCommand.split(value)
    } catch {
      throw Invalid(reason: error.reason)
    }
    guard !words.isEmpty else { throw expected }
    return try words.map { (word) throws(Invalid) in
      guard let equals = word.firstIndex(of: "="), equals != word.startIndex else { throw expected }
      return ImapSettings.SecretAttribute(
        name: String(word[..<equals]), value: String(word[word.index(after: equals)...]))
    }
  }

  /// The rules between the keys, each placed at the later of its lines.
  func faultsTogether(lines: [String: Int], section: String) -> [(line: Int, reason: String)] {
    var faults: [(line: Int, reason: String)] = []
    let given = ImapSettings.credentialKeys.compactMap { key in lines[key].map { (key, $0) } }.sorted { $0.1 < $1.1 }
    if given.count > 1 {
      let (first, second) = (given[0], given[1])
      faults.append(
        (
          second.1,
          "'\(first.0)' and '\(second.0)' cannot go together (lines \(first.1) and \(second.1)): an imap source "
            + "takes one of \(ImapKeys.credentialList)"
        ))
    }
    if let line = lines["oauth2_mechanism"], lines["oauth2_token_command"] == nil {
      faults.append(
        (line, "'oauth2_mechanism' in [\(section)] is how a token is sent, and it gives no oauth2_token_command"))
    }
    return faults
  }

  /// What the section lacks besides its required keys: a credential key (given, even with a
  /// value refused, it is not lacking).
  func missing(lines: [String: Int]) -> String? {
    guard !ImapSettings.credentialKeys.contains(where: { lines[$0] != nil }) else { return nil }
    return "has no \(ImapKeys.credentialList); an imap source needs one"
  }

  /// The settings, once every entry was accepted and nothing is missing.
  func settings() -> ImapSettings {
    var credential = credentials.values.first!
    if case .oauth2(let command, _) = credential {
      credential = .oauth2(command: command, mechanism: mechanism ?? .xoauth2)
    }
    var settings = ImapSettings(
      host: server!.host, port: server!.port, security: server!.security, username: username!, credential: credential)
    if let folders { settings.folders = folders }
    settings.caFile = caFile
    settings.maxConnections = maxConnections
    return settings
  }
}

extension Substring {
  /// The text without `characters` at either end.
  fileprivate func trimmingCharacters(in characters: String) -> String {
    String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
  }
}
