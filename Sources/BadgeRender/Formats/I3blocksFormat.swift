/// i3blocks with `format=json`: plain text (i3bar shows Pango only with a Pango font), the
/// badge's ink as `color`, and `"urgent": "true"` as a string during the pulse window, since
/// i3blocks 1.4 drops JSON booleans.
enum I3blocksFormat {
  static func render(_ frames: [BadgeFrame], options: RenderOptions) -> String {
    let dialect = PlainDialect()
    var object = JSONObject()
    object.add("full_text", TextLine.compose(frames, in: dialect, options: options))
    object.add("short_text", TextLine.compose(frames, in: dialect, options: options, template: .label))
    let lead =
      frames.first(where: \.pulsing) ?? frames.first { !$0.isHidden } ?? frames.first
    object.add("color", (lead?.ink(options.palette) ?? options.palette.badge).hex)
    if frames.contains(where: \.pulsing) { object.add("urgent", "true") }
    return object.text + "\n"
  }
}
