import BadgeCore

/// Home Assistant's MQTT discovery (`homeassistant = yes`): a retained config per shared
/// channel makes it a sensor, and one per machine a switch for shared do-not-disturb, with
/// the fields of Home Assistant's MQTT sensor and switch documentation.
///
/// Topics: `homeassistant/<component>/<node_id>/<object_id>/config`, where Home Assistant wants
/// the ids in `[a-zA-Z0-9_-]`; `node_id` names this user's machine, `object_id` the channel.
public struct HomeAssistant: Sendable {
  /// Home Assistant's discovery prefix and its birth topic (`online` when it starts, which
  /// asks every device to send its configs again).
  public static let discoveryPrefix = "homeassistant"
  public static let statusTopic = "homeassistant/status"

  public let topics: MeshTopics
  /// `badged <version>`, for the device and origin fields.
  public let version: String

  public init(topics: MeshTopics, version: String = BadgedVersion.current) {
    self.topics = topics
    self.version = version
  }

  /// An id Home Assistant accepts, made from `text`: lower-case letters and digits kept, every
  /// other character an `_`; when that lost anything (upper case, `.`, `:`), a short hash of
  /// the text follows, so that two names never share an id (`app:org.telegram.desktop` →
  /// `app_org_telegram_desktop_3f9a0c1b`, `mail` → `mail`).
  public static func objectID(_ text: String) -> String {
    var mapped = ""
    for byte in text.utf8 {
      let keep = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
      mapped.unicodeScalars.append(keep ? Unicode.Scalar(byte) : "_")
    }
    guard mapped != text else { return mapped }
    let hex = String(fnv1a(text), radix: 16)
    return mapped + "_" + String(repeating: "0", count: 8 - hex.count) + hex
  }

  /// FNV-1a, 32 bits: stable across runs and machines, unlike Swift's seeded `Hasher`.
  static func fnv1a(_ text: String) -> UInt32 {
    var hash: UInt32 = 0x811C_9DC5
    for byte in text.utf8 {
      hash ^= UInt32(byte)
      hash = hash &* 0x0100_0193
    }
    return hash
  }

  /// This user's machine: the node of its configs and the device its entities belong to.
  public var nodeID: String { HomeAssistant.objectID("\(topics.prefix)/\(topics.host)") }

  /// How long after Home Assistant's birth message this machine sends its configs again, in
  /// microseconds: 0 to 999 ms, from the node's hash. Home Assistant's documentation
  /// recommends a delay so that devices do not all answer at once; one that differs from
  /// machine to machine but not from run to run keeps the bridge's decisions free of
  /// randomness.
  public var birthDelay: UInt64 { UInt64(HomeAssistant.fnv1a(nodeID) % 1000) * 1000 }

  public func sensorTopic(_ channel: ChannelName) -> String {
    "\(HomeAssistant.discoveryPrefix)/sensor/\(nodeID)/\(HomeAssistant.objectID(channel.description))/config"
  }

  public var switchTopic: String { "\(HomeAssistant.discoveryPrefix)/switch/\(nodeID)/dnd/config" }

  /// The device: one per machine and user, named after the host.
  private var device: JSONValue {
    .object([
      ("identifiers", .array([.string(nodeID)])), ("name", .string("badged on \(topics.host)")),
      ("manufacturer", .string("badged")), ("model", .string("badged-mqtt")), ("sw_version", .string(version)),
    ])
  }

  private var origin: JSONValue { .object([("name", .string("badged-mqtt")), ("sw_version", .string(version))]) }

  /// Available while the owner's status is `online`: its last will makes it `offline`.
  private var availability: JSONValue {
    .array([
      .object([
        ("topic", .string(topics.ownStatus)), ("payload_available", .string("online")),
        ("payload_not_available", .string("offline")),
      ])
    ])
  }

  /// The members of a channel's state that a sensor shows as attributes: not `seq`, `pulse`
  /// and `claimed`, since Home Assistant's sensor documentation warns against attributes that
  /// change with every message (each change is a state write in its recorder) and `claimed` is
  /// the bridges' bookkeeping.
  static let attributes = ["label", "unseen", "total", "muted", "dot", "owner"]

  /// A sensor whose state is the channel's count, with the rest of the state as attributes.
  public func sensorConfig(_ channel: ChannelName) -> [UInt8] {
    let state = topics.ownState(of: channel)
    let members = HomeAssistant.attributes.map { "'\($0)': value_json.\($0)" }.joined(separator: ", ")
    let config = JSONValue.object([
      ("name", .string(channel.description)),
      ("unique_id", .string("\(nodeID)_\(HomeAssistant.objectID(channel.description))")),
      ("state_topic", .string(state)),
      ("value_template", .string("{{ value_json.count }}")),
      ("json_attributes_topic", .string(state)),
      ("json_attributes_template", .string("{{ {\(members)} | tojson }}")),
      ("state_class", .string("measurement")),
      ("icon", .string("mdi:bell-badge")),
      ("qos", .integer(1)),
      ("availability", availability),
      ("device", device),
      ("origin", origin),
    ])
    return Array(config.encoded.utf8)
  }

  /// A switch for shared do-not-disturb: its state from this machine's `host/<host>/dnd` (the
  /// state every machine ends on), its commands `ON` and `OFF` to `dnd/set`.
  public var switchConfig: [UInt8] {
    let config = JSONValue.object([
      ("name", .string("Do not disturb")),
      ("unique_id", .string("\(nodeID)_dnd")),
      ("state_topic", .string(topics.ownDND)),
      ("value_template", .string("{{ 'ON' if value_json.on else 'OFF' }}")),
      ("command_topic", .string(topics.dndSet)),
      ("payload_on", .string("ON")),
      ("payload_off", .string("OFF")),
      ("state_on", .string("ON")),
      ("state_off", .string("OFF")),
      ("icon", .string("mdi:bell-off")),
      ("qos", .integer(1)),
      ("availability", availability),
      ("device", device),
      ("origin", origin),
    ])
    return Array(config.encoded.utf8)
  }
}
