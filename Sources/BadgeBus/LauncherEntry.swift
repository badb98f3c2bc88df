import BadgeCore

/// One LauncherEntry `Update` signal's body (`sa{sv}`): the channel of the app it is for and
/// the properties it sends.
public struct LauncherEntryUpdate: Equatable, Sendable {
  /// The channel: `app:` and the desktop id of the app URI (`AppChannel`).
  public let channel: ChannelName
  public let properties: [BusProperty]

  /// The body's signature the daemon reads.
  public static let signature = "sa{sv}"

  /// Why a body is not an update the daemon reads, for a debug line ("Ignored an Update from
  /// :1.42 with signature 's', expected 'sa{sv}'").
  public enum Unread: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another signature than `sa{sv}`.
    case signature(String)
    /// The app URI holds no desktop id.
    case noDesktopID(uri: String)

    public var description: String {
      switch self {
      case .signature(let signature):
        return "with signature '\(signature)', expected '\(LauncherEntryUpdate.signature)'"
      case .noDesktopID(let uri): return "for '\(uri)': no desktop id in it"
      }
    }
  }

  /// Reads a body of `signature`; `arguments` are read only when the signature is the one.
  public init(signature: String, arguments: () -> [BusValue]) throws(Unread) {
    guard signature == Self.signature else { throw .signature(signature) }
    let values = arguments()
    guard values.count == 2, case .string(let uri) = values[0], case .dictionary(let properties) = values[1] else {
      throw .signature(signature)
    }
    guard let channel = AppChannel.channel(prefix: AppChannel.launcherPrefix, id: AppChannel.desktopID(fromAppURI: uri))
    else { throw .noDesktopID(uri: uri) }
    self.channel = channel
    self.properties = properties
  }
}

/// What one application told the LauncherEntry API so far, merged over its signals.
///
/// Apps send partial updates (Electron sends `count` and `count-visible` in one signal and
/// `progress` in another), so each signal's properties go over the ones before. As in every
/// dock, a count that is not visible reads as 0 but is remembered.
public struct LauncherEntryState: Equatable, Sendable {
  /// The last `count`, clamped to `0 ... Limits.maxCount`.
  public private(set) var count = 0
  /// The last `count-visible`; false until an app says otherwise.
  public private(set) var countVisible = false

  public init() {}

  /// The count the channel shows.
  public var visibleCount: Int { countVisible ? count : 0 }

  /// Merges one signal's properties.
  ///
  /// - Returns: what the channel should do, and the properties that were skipped for their type.
  public mutating func merge(_ properties: [BusProperty]) -> LauncherEntryEffect {
    var effect = LauncherEntryEffect()
    var touchedCount = false
    for property in properties {
      let value = property.value
      switch property.key {
      case "count":
        guard let count = value.clampedCount(limit: Limits.maxCount) else {
          effect.skipped.append("count (\(value.typeName))")
          continue
        }
        self.count = count
        touchedCount = true
      case "count-visible":
        guard case .boolean(let visible) = value else {
          effect.skipped.append("count-visible (\(value.typeName))")
          continue
        }
        countVisible = visible
        touchedCount = true
      case "urgent":
        guard case .boolean(let urgent) = value else {
          effect.skipped.append("urgent (\(value.typeName))")
          continue
        }
        effect.urgent = urgent
      default:
        continue  // progress, progress-visible, quicklist: nothing a badge shows
      }
    }
    if touchedCount { effect.count = visibleCount }
    return effect
  }
}

/// What a merged LauncherEntry signal asks of its channel.
public struct LauncherEntryEffect: Equatable, Sendable {
  /// The count to set, when the signal said anything about the count.
  public var count: Int?
  /// Whether the signal asked for attention (`urgent=true`): the channel pulses.
  public var urgent = false
  /// Properties that were present but of a type the daemon does not take, for a debug line.
  public var skipped: [String] = []

  public init(count: Int? = nil, urgent: Bool = false, skipped: [String] = []) {
    self.count = count
    self.urgent = urgent
    self.skipped = skipped
  }
}
