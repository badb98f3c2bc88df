/// What a badge shows for a count: nothing at 0, the number up to `max_label`, then
/// `<max_label>+`; a dot-style channel shows `•` whenever its count is above zero.
public enum Label {
  /// The label of a dot-style channel with unread items (U+2022 BULLET).
  public static let dot = "•"
  private static let dotBytes: [UInt8] = Array(dot.utf8)

  /// Appends the label for `count` under `settings` to `buffer`.
  @inline(__always)
  public static func append(count: Int, settings: ChannelSettings, to buffer: inout [UInt8]) {
    guard count > 0 else { return }
    if settings.style == .dot {
      buffer.append(contentsOf: dotBytes)
    } else if count > settings.maxLabel {
      DecimalFormatter.append(settings.maxLabel, to: &buffer)
      buffer.append(UInt8(ascii: "+"))
    } else {
      DecimalFormatter.append(count, to: &buffer)
    }
  }

  /// The label for `count` under `settings`.
  public static func text(count: Int, settings: ChannelSettings) -> String {
    text(count: count, maxLabel: settings.maxLabel, style: settings.style)
  }

  /// The label for `count` with a given limit and style (watchers may ask for their own limit).
  public static func text(count: Int, maxLabel: Int, style: ChannelStyle = .count) -> String {
    guard count > 0 else { return "" }
    if style == .dot { return dot }
    return count > maxLabel ? "\(maxLabel)+" : String(count)
  }
}
