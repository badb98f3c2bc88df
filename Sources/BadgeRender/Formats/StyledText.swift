/// How a run of terminal text looks.
public struct TextStyle: Equatable, Hashable, Sendable {
  public var foreground: RGB?
  public var background: RGB?
  public var bold = false

  public init(foreground: RGB? = nil, background: RGB? = nil, bold: Bool = false) {
    self.foreground = foreground
    self.background = background
    self.bold = bold
  }

  public static let plain = TextStyle()
}

/// Terminal text as runs of one style each, written as ANSI SGR sequences.
public struct StyledText: Sendable {
  public private(set) var runs: [(text: String, style: TextStyle)] = []

  public init() {}

  public init(_ text: String, _ style: TextStyle = .plain) {
    append(text, style)
  }

  /// Appends `text`, merging it into the last run when the style is the same.
  public mutating func append(_ text: String, _ style: TextStyle = .plain) {
    guard !text.isEmpty else { return }
    if let last = runs.last, last.style == style {
      runs[runs.count - 1].text += text
    } else {
      runs.append((text, style))
    }
  }

  /// Appends every run of `other`.
  public mutating func append(_ other: StyledText) {
    for run in other.runs { append(run.text, run.style) }
  }

  /// The text without any style.
  public var plainText: String { runs.map(\.text).joined() }

  /// The text with each styled run opened by its SGR codes and closed by a reset; no escapes
  /// at all in `.none`.
  func ansi(_ mode: ColourMode) -> String {
    guard mode != .none else { return plainText }
    return runs.map { run in
      let codes = StyledText.codes(run.style, mode)
      return codes.isEmpty ? run.text : "\u{1B}[" + codes + "m" + run.text + "\u{1B}[0m"
    }.joined()
  }

  private static func codes(_ style: TextStyle, _ mode: ColourMode) -> String {
    var codes: [String] = []
    if style.bold { codes.append("1") }
    if let colour = style.foreground { codes.append(colourCode(38, colour, mode)) }
    if let colour = style.background { codes.append(colourCode(48, colour, mode)) }
    return codes.joined(separator: ";")
  }

  /// `38;2;r;g;b` / `38;5;n` for a foreground (`plane` 38) or background (48).
  private static func colourCode(_ plane: Int, _ colour: RGB, _ mode: ColourMode) -> String {
    switch mode {
    case .palette256: return "\(plane);5;\(colour.xterm256)"
    default: return "\(plane);2;\(colour.red);\(colour.green);\(colour.blue)"
    }
  }
}
