/// Every output `badgectl watch` can write.
public enum OutputFormat: String, Sendable, CaseIterable {
  /// ANSI for a terminal: one line rewritten in place, or a multi-row digit font (`big`).
  case term
  /// Waybar custom module, `"return-type": "json"`.
  case waybar
  /// Polybar `custom/script` with `tail = true`.
  case polybar
  /// i3blocks with `interval=persist` and `format=json`.
  case i3blocks
  /// tmux `#(…)` status commands.
  case tmux
  /// eww `deflisten`: one JSON object per channel per line.
  case eww
  /// The same objects as `eww`, for scripts.
  case json
  /// yambar script module: `name|type|value` sets ended by an empty line.
  case yambar
  /// Plain text, no escapes.
  case plain
  /// One JSON object per channel per rendered frame with the engine's exact values.
  case frames

  /// Whether the target can show motion at all. tmux redraws at most once a second, so its
  /// watcher should run its animators with `noMotion` and draw end states.
  public var showsMotion: Bool { self != .tmux }

  /// The most frames per second worth writing: what the target redraws, or what a reader of
  /// the stream can use.
  public var maxFramesPerSecond: Int {
    switch self {
    case .term: return 60
    case .frames: return 120
    case .waybar, .polybar, .eww, .json, .yambar, .plain: return 30
    case .i3blocks: return 20
    case .tmux: return 1
    }
  }
}

/// Frame rates per format, and the frame grid that wake times are put on.
///
/// Wake times sit on a grid of whole frames counted from time 0, so that the animators of
/// several channels wake together and a watcher draws one line for all of them.
public enum FrameRate {
  /// The frame rate when none is asked for.
  public static let standard = 30

  /// The frame rate for `format`: `requested` (or the standard 30) capped by the format, at
  /// least 1.
  public static func framesPerSecond(for format: OutputFormat, requested: Int? = nil) -> Int {
    min(max(requested ?? standard, 1), format.maxFramesPerSecond)
  }

  /// Seconds between frames for `format` at `requested` frames per second.
  public static func interval(for format: OutputFormat, requested: Int? = nil) -> Double {
    1 / Double(framesPerSecond(for: format, requested: requested))
  }

  /// Slack for grid arithmetic, so that a time computed as 0.1 + 0.2 counts as on the 0.3 line.
  static let slack = 1e-9

  /// The first frame on the grid strictly after `time`.
  public static func tick(after time: Double, interval: Double) -> Double {
    ((time / interval + slack).rounded(.down) + 1) * interval
  }

  /// The first frame on the grid at or after `time`.
  public static func quantise(_ time: Double, interval: Double) -> Double {
    (time / interval - slack).rounded(.up) * interval
  }
}
