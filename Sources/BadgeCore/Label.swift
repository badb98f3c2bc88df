/// What a badge shows for a count: nothing at 0, the number up to `max_label`, then
/// `<max_label>+`; a dot-style channel shows `•` whenever its count is above zero. A channel
/// with `badge = unseen` counts its unseen items instead, and shows the quiet dot `◦` when it
/// has unread items that were all seen.
public enum Label {
  /// The label of a dot-style channel with unread items (U+2022 BULLET).
  public static let dot = "•"
  /// The label of a `badge = unseen` channel whose unread items were all seen (U+25E6 WHITE
  /// BULLET): it still needs attention, but nothing new arrived.
  public static let quietDot = "◦"
  private static let dotBytes: [UInt8] = Array(dot.utf8)
  private static let quietDotBytes: [UInt8] = Array(quietDot.utf8)

  /// Appends the label of a channel with `count` unread and `unseen` new items under
  /// `settings` to `buffer`.
  @inline(__always)
  public static func append(count: Int, unseen: Int, settings: ChannelSettings, to buffer: inout [UInt8]) {
    guard count > 0 else { return }
    let shown = settings.badge == .count ? count : unseen
    if shown == 0 {
      buffer.append(contentsOf: quietDotBytes)
    } else if settings.style == .dot {
      buffer.append(contentsOf: dotBytes)
    } else if shown > settings.maxLabel {
      DecimalFormatter.append(settings.maxLabel, to: &buffer)
      buffer.append(UInt8(ascii: "+"))
    } else {
      DecimalFormatter.append(shown, to: &buffer)
    }
  }

  /// The label of a channel with `count` unread and `unseen` new items (all of them without
  /// it) under `settings`.
  public static func text(count: Int, unseen: Int? = nil, settings: ChannelSettings) -> String {
    text(count: count, unseen: unseen, badge: settings.badge, maxLabel: settings.maxLabel, style: settings.style)
  }

  /// The label with a given limit and style (watchers may ask for their own limit).
  public static func text(
    count: Int, unseen: Int? = nil, badge: BadgeCounts = .count, maxLabel: Int, style: ChannelStyle = .count
  ) -> String {
    guard count > 0 else { return "" }
    let shown = badge == .count ? count : (unseen ?? count)
    if shown == 0 { return quietDot }
    if style == .dot { return dot }
    return shown > maxLabel ? "\(maxLabel)+" : String(shown)
  }
}
