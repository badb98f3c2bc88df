/// yambar's script protocol: a set of `name|type|value` lines ended by an empty line.
///
/// One channel's tags have plain names (`count|int|7`); with several channels each name gets
/// the channel as a prefix (`mail_count|int|7`), with anything but letters, digits and `_` in
/// the channel turned into `_`.
enum YambarFormat {
  static func render(_ frames: [BadgeFrame]) -> String {
    var lines: [String] = []
    for frame in frames {
      let prefix = frames.count > 1 ? tagName(frame.channel) + "_" : ""
      func tag(_ name: String, _ type: String, _ value: String) {
        lines.append(prefix + name + "|" + type + "|" + Printable.text(value))
      }
      tag("channel", "string", frame.channel)
      tag("count", "int", String(frame.count))
      tag("label", "string", frame.label)
      tag("shown", "string", LabelCell.text(of: frame))
      tag("dot", "bool", String(frame.dot))
      tag("pulse", "bool", String(frame.pulsing))
      tag("muted", "bool", String(frame.muted))
      tag("quiet", "bool", String(frame.isQuiet))
      tag("dnd", "string", frame.silenced?.rawValue ?? "off")
      tag("online", "bool", String(frame.online))
      tag("scale", "float", DecimalFormat.fixed(frame.inkScale))
      tag("opacity", "float", DecimalFormat.fixed(frame.inkOpacity))
      tag("text", "string", AccessibleText.describe(frame))
    }
    return lines.map { $0 + "\n" }.joined() + "\n"
  }

  /// `channel` as a tag name: letters, digits and `_`.
  static func tagName(_ channel: String) -> String {
    String(channel.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
  }
}
