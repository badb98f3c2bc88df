/// Turns the frames of every watched channel into exactly what the watcher writes for one
/// update, in one format.
///
/// Every output is complete: line formats end their line (`\n`), yambar ends its set with an
/// empty line, the terminal rewrites its line without ending it. Several channels share one
/// line in the text formats (joined by `RenderOptions.separator`) and one object in Waybar
/// and i3blocks; eww/json and frames write one object per channel.
public struct Renderer: Sendable {
  public let format: OutputFormat
  public var options: RenderOptions
  /// Whether big mode has drawn rows that the next frame must move back up over.
  private var hasDrawnBigRows = false

  public init(format: OutputFormat, options: RenderOptions = RenderOptions()) {
    self.format = format
    self.options = options
  }

  /// The output for one update of `frames`.
  public mutating func render(_ frames: [BadgeFrame]) -> String {
    switch format {
    case .term where options.big:
      defer { hasDrawnBigRows = true }
      return BigFormat.render(frames, options: options, redraw: hasDrawnBigRows)
    case .term: return TermFormat.render(frames, options: options)
    case .waybar: return WaybarFormat.render(frames, options: options)
    case .polybar: return PolybarFormat.render(frames, options: options)
    case .i3blocks: return I3blocksFormat.render(frames, options: options)
    case .tmux: return TmuxFormat.render(frames, options: options)
    case .eww, .json: return ChannelJSONFormat.render(frames)
    case .yambar: return YambarFormat.render(frames)
    case .plain: return PlainFormat.render(frames, options: options)
    case .frames: return FramesFormat.render(frames)
    }
  }
}
