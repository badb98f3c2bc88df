import BadgeCore

/// How an application's desktop id becomes a channel name: `app:<id>` for LauncherEntry,
/// `notify:<id>` for notification counts.
///
/// The rule, as the docs state it: the `application://` scheme and a `.desktop` suffix are
/// removed; every byte outside `A-Z a-z 0-9 . _ -` becomes `_`; the id is cut to fit the
/// 64-byte limit of channel names.
public enum AppChannel {
  public static let launcherPrefix = AppChannelPrefix.launcher
  public static let notificationPrefix = AppChannelPrefix.notification

  /// `application://org.telegram.desktop.desktop` → `org.telegram.desktop`.
  public static func desktopID(fromAppURI uri: String) -> String {
    var id = Substring(uri)
    if id.hasPrefix("application://") { id = id.dropFirst("application://".count) }
    if id.hasSuffix(".desktop") { id = id.dropLast(".desktop".count) }
    return String(id)
  }

  /// `id` with every byte outside `A-Z a-z 0-9 . _ -` replaced by `_`.
  public static func sanitized(_ id: String) -> String {
    let bytes = id.utf8.map { byte -> UInt8 in
      ChannelName.isNameByte(byte) && byte != UInt8(ascii: ":") ? byte : UInt8(ascii: "_")
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The channel for `id` under `prefix`, or `nil` when the id is empty.
  public static func channel(prefix: String, id: String) -> ChannelName? {
    let mapped = sanitized(id)
    guard !mapped.isEmpty else { return nil }
    let room = ChannelName.maxLength - prefix.utf8.count
    return ChannelName(prefix + String(decoding: mapped.utf8.prefix(room), as: UTF8.self))
  }

  /// The desktop id of a channel made for an app (`app:org.telegram.desktop` →
  /// `org.telegram.desktop`), or `nil` for other channels.
  public static func desktopID(of channel: ChannelName) -> String? {
    let text = channel.description
    for prefix in [launcherPrefix, notificationPrefix] where text.hasPrefix(prefix) {
      let id = String(text.dropFirst(prefix.count))
      return id.isEmpty ? nil : id
    }
    return nil
  }
}
