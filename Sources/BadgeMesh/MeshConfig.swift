import BadgeCore

/// The `[mqtt]` section of badged.conf, validated: what `badged-mqtt` connects to and which
/// channels it shares and mirrors.
///
/// The daemon skips the section (it never talks to the network); the bridge skips every other
/// section, which the daemon validates.
public struct MeshConfig: Equatable, Sendable {
  /// `broker`: where the broker is.
  public var broker: BrokerAddress
  /// `host`: this machine's name in topics, owners and request ids.
  public var host: String
  /// `prefix`: the topic levels every topic of this user starts with.
  public var prefix: String
  /// `username`: the broker account (one per host, so that the broker's ACL can tell hosts apart).
  public var username: String?
  /// `password_file`: a file whose first line is the password; private to its owner.
  public var passwordFile: String?
  /// `ca_file`: the certificates the broker's is checked against; the system's store when unset.
  public var caFile: String?
  /// `cert_file` and `key_file`: a client certificate, for brokers that ask for one.
  public var certFile: String?
  public var keyFile: String?
  /// `share`: the channels whose source is on this machine, which it owns.
  public var share: [ChannelPattern] = []
  /// `mirror`: the channels of other machines shown here (every channel by default).
  public var mirror: [ChannelPattern] = [.all]
  /// `dnd`: whether do-not-disturb is kept to this machine or shared.
  public var dnd: DNDSharing = .local
  /// `homeassistant`: whether Home Assistant discovery configs are published.
  public var homeAssistant = false
  /// `keepalive_s`: how often the broker and the bridge hear from each other when idle; a
  /// link that stays silent for one and a half times this is taken as lost.
  public var keepaliveSeconds = 30
  /// The file the section was read from, and the line of each key given, so that what is found
  /// wrong later (a password file that cannot be read) is reported where it was written.
  public var file: String
  public var lines: [Key: Int] = [:]

  public init(broker: BrokerAddress, host: String, prefix: String, file: String = "badged.conf") {
    self.broker = broker
    self.host = host
    self.prefix = prefix
    self.file = file
  }

  /// Why the broker's recommended ACL (contrib/mosquitto/acl) would refuse what this machine
  /// publishes: it lets each account write only under `<prefix>/host/<account>/`, so the
  /// account must be named as the host. `nil` when it is, or when there is no account.
  public var accountWarning: String? {
    guard let username, username != host else { return nil }
    return "username \(username) is not this machine's host name (\(host)): a broker with the recommended ACL "
      + "lets an account publish states and answers only under \(prefix)/host/<its name>/, so this machine's "
      + "would be refused; name the account \(host), or set host = \(username)."
  }

  /// The keys `[mqtt]` accepts.
  public enum Key: String, CaseIterable, Sendable {
    case broker
    case tls
    case host
    case prefix
    case username
    case passwordFile = "password_file"
    case caFile = "ca_file"
    case certFile = "cert_file"
    case keyFile = "key_file"
    case share
    case mirror
    case dnd
    case homeAssistant = "homeassistant"
    case keepaliveSeconds = "keepalive_s"
  }

  /// `dnd`: `local` keeps do-not-disturb to each machine; `shared` turns it on and off on every
  /// machine that shares it.
  public enum DNDSharing: String, CaseIterable, Sendable {
    case local
    case shared
  }

  /// The range `keepalive_s` accepts: MQTT's smallest useful keepalive to an hour.
  public static let keepaliveRange = 5...3600

  /// Whether this machine shares (owns) `name`.
  public func shares(_ name: ChannelName) -> Bool { share.contains { $0.matches(name) } }

  /// Whether this machine shows `name` when another machine shares it.
  public func mirrors(_ name: ChannelName) -> Bool { mirror.contains { $0.matches(name) } }

  /// `file:line` of `key` for a message, or the file alone when the key was not written.
  public func place(of key: Key) -> String {
    lines[key].map { "\(file):\($0)" } ?? file
  }
}

extension MeshConfig {
  /// What the section's defaults come from: the machine and the user.
  public struct Defaults: Sendable {
    /// This machine's name (`Environment.hostName`, the daemon's too), for `host`.
    public var hostName: String
    /// The login name, for `prefix` (`badged/<user>`).
    public var userName: String

    public init(hostName: String, userName: String) {
      self.hostName = hostName
      self.userName = userName
    }
  }

  /// Whether `text` can name a host: 1 to 64 characters from `A-Z a-z 0-9 . _ -`, starting with
  /// a letter or digit. It then needs no escaping in a topic, and cannot be mistaken for the
  /// `:` separators of request ids.
  public static func isHostName(_ text: some StringProtocol) -> Bool {
    let bytes = Array(text.utf8)
    guard (1...64).contains(bytes.count), isAlphanumeric(bytes[0]) else { return false }
    return bytes.allSatisfy { isAlphanumeric($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
  }

  /// Whether `text` can be the topic prefix: levels separated by `/`, none empty, no `+`, `#`
  /// or NUL, not starting with `$` (the broker's own topics), at most 128 bytes.
  public static func isPrefix(_ text: some StringProtocol) -> Bool {
    guard !text.isEmpty, text.utf8.count <= 128, !text.hasPrefix("$") else { return false }
    guard !text.utf8.contains(where: { $0 == 0x2B || $0 == 0x23 || $0 < 0x20 || $0 == 0x7F }) else { return false }
    return text.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty }
  }

  static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
  }
}
