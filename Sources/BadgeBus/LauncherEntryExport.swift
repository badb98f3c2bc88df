import BadgeCore

/// How badged announces an exported channel to docks: the `Update` signal's path, app URI and
/// properties, as libunity sends them.
public enum LauncherEntryExport {
  public static let interface = "com.canonical.Unity.LauncherEntry"
  public static let member = "Update"
  /// The name whose owner (a dock) listens; apps send their full state when it appears.
  public static let dockName = "com.canonical.Unity"

  /// What an exported channel announces.
  public struct State: Equatable, Sendable {
    public var count: Int
    public var urgent: Bool

    public init(count: Int, urgent: Bool) {
      self.count = count
      self.urgent = urgent
    }

    /// `count` as int64 (`x`), `count-visible` true while the count is above 0, `urgent`
    /// during the pulse window.
    public var properties: [BusProperty] {
      [
        BusProperty(key: "count", value: .signed(Int64(count))),
        BusProperty(key: "count-visible", value: .boolean(count > 0)),
        BusProperty(key: "urgent", value: .boolean(urgent)),
      ]
    }
  }

  /// `org.telegram.desktop` → `application://org.telegram.desktop.desktop`.
  public static func appURI(forDesktopID id: String) -> String {
    "application://\(id).desktop"
  }

  /// The object path the signal is sent from: `/com/canonical/unity/launcherentry/<digits>`,
  /// the digits a stable hash (32-bit FNV-1a) of the app URI, as libunity derives its path
  /// from a hash of the URI.
  public static func objectPath(forDesktopID id: String) -> String {
    var hash: UInt32 = 2_166_136_261
    for byte in appURI(forDesktopID: id).utf8 {
      hash = (hash ^ UInt32(byte)) &* 16_777_619
    }
    return "/com/canonical/unity/launcherentry/\(hash)"
  }
}
