/// What a badge shows for a count: nothing at 0, the number up to `max_label`, then
/// `<max_label>+`; a dot-style channel shows `•` whenever its count is above zero. A channel
/// with `badge = unseen` counts its unseen items instead, and shows the quiet dot `◦` when it
/// has unread items that were all seen.
public enum Label {
  /// The label of a dot-style channel with unread items (U+2022 BULLET).
  public static let dot = dotText.description
  /// The label of a `badge = unseen` channel whose unread items were all seen (U+25E6 WHITE
  /// BULLET): it still needs attention, but nothing new arrived.
  public static let quietDot = quietDotText.description
  private static let dotText: StaticString = "•"
  private static let quietDotText: StaticString = "◦"

  /// Writes the label of a channel with `count` unread and `unseen` new items under
  /// `settings` (the reply and event lines' `label=`).
  @inline(__always)
  public static func write(count: Int, unseen: Int, settings: ChannelSettings, to writer: inout ByteWriter) {
    guard count > 0 else { return }
    let shown = settings.badge == .count ? count : unseen
    if shown == 0 {
      writer.write(quietDotText)
    } else if settings.style == .dot {
      writer.write(dotText)
    } else if shown > settings.maxLabel {
      writer.write(decimal: settings.maxLabel)
      writer.write(UInt8(ascii: "+"))
    } else {
      writer.write(decimal: shown)
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
