/// One JSON object per channel per line, for eww (`deflisten`, then `v.count`) and scripts:
/// the fields `badgectl get --format json` prints, with the animated properties after them.
enum ChannelJSONFormat {
  static func render(_ frames: [BadgeFrame]) -> String {
    JSONObject.lines(frames) { object, frame in
      object.addState(of: frame.state)
      object.add("pulsing", frame.pulsing)
      object.add("shown", frame.drawnLabel)
      object.add("previous", frame.roll?.from ?? "")
      object.add("direction", frame.roll?.direction.rawValue ?? "")
      object.addMotion(of: frame)
      object.add("text", AccessibleText.describe(frame))
      object.add("class", frame.classes)
    }
  }
}

/// The engine's exact values, one object per channel per rendered frame, for checking and
/// plotting the motion: `t` counts from the change that started it.
enum FramesFormat {
  static func render(_ frames: [BadgeFrame]) -> String {
    JSONObject.lines(frames) { object, frame in
      object.add("t", frame.elapsed)
      object.add("channel", frame.channel)
      object.add("label", frame.drawnLabel)
      object.add("previous", frame.roll?.from ?? "")
      object.add("dot", frame.dot)
      object.addMotion(of: frame)
    }
  }
}

extension JSONObject {
  /// One object per frame, each on a line of its own, filled in by `fill`.
  static func lines(_ frames: [BadgeFrame], _ fill: (inout JSONObject, BadgeFrame) -> Void) -> String {
    frames.map { frame in
      var object = JSONObject()
      fill(&object, frame)
      return object.text + "\n"
    }.joined()
  }

  /// The animated properties of `frame`, as the engine computed them.
  mutating func addMotion(of frame: BadgeFrame) {
    add("scale", frame.scale)
    add("opacity", frame.opacity)
    add("offset", frame.roll?.offset ?? 0)
    add("dotScale", frame.dotScale)
    add("dotOpacity", frame.dotOpacity)
  }
}
