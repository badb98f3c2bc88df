/// The terminal, one line: the badge as a coloured pill whose padding, weight and half-block
/// caps carry the scale, whose colour fades over the background with the opacity, and whose
/// changing digits hand their cell from the old glyph to the new one half way through a roll.
/// Without colour, brackets and padding carry the look.
struct TermDialect: TextDialect {
  let palette: Palette
  let mode: ColourMode

  func escape(_ text: String) -> String { Printable.text(text) }

  func badge(_ frame: BadgeFrame) -> String { styled(frame).ansi(mode) }

  func styled(_ frame: BadgeFrame) -> StyledText {
    var styled = StyledText()
    guard !frame.isHidden else { return styled }
    let cells = LabelCell.sizedCells(of: frame)
    if frame.dot {
      styled.append(LabelCell.text(of: cells), TextStyle(foreground: frame.ink(palette)))
    } else if mode == .none {
      styled.append(bracketed(LabelCell.text(of: cells), frame))
    } else {
      styled.append(pill(cells, frame))
    }
    return styled
  }

  /// The count on a pill: the pill's colour is the badge's ink, each glyph fades into the pill
  /// as the roll moves it away.
  private func pill(_ cells: [LabelCell], _ frame: BadgeFrame) -> StyledText {
    let emphasis = frame.emphasis
    let pill = frame.ink(palette)
    let digits = palette.text.faded(over: palette.background, opacity: frame.inkOpacity)
    let body = TextStyle(foreground: digits, background: pill, bold: emphasis >= .bold)
    let padding = emphasis == .small ? "" : " "
    var styled = StyledText()
    if emphasis == .peak { styled.append("▐", TextStyle(foreground: pill)) }
    styled.append(padding, body)
    for cell in cells {
      var style = body
      style.foreground = digits.faded(over: pill, opacity: cell.ownerAlpha)
      styled.append(String(cell.owner.glyph), style)
    }
    styled.append(padding, body)
    if emphasis == .peak { styled.append("▌", TextStyle(foreground: pill)) }
    return styled
  }

  /// The count without colour: `[4]` at rest, `[ 4 ]` at the peak, bare while appearing or
  /// vanishing; a muted channel uses parentheses.
  private func bracketed(_ text: String, _ frame: BadgeFrame) -> String {
    let (open, close) = frame.muted ? ("(", ")") : ("[", "]")
    switch frame.emphasis {
    case .small: return text
    case .regular, .bold: return open + text + close
    case .peak: return open + " " + text + " " + close
    }
  }
}

/// The `term` format's output for one frame of every channel.
enum TermFormat {
  /// Erases the line the cursor is on, from its start.
  static let eraseLine = "\r\u{1B}[2K"

  /// One line: rewritten in place (no line end), or printed as a line of its own.
  static func render(_ frames: [BadgeFrame], options: RenderOptions) -> String {
    let dialect = TermDialect(palette: options.palette, mode: options.colour)
    let line = TextLine.compose(frames, in: dialect, options: options, keepsHidden: true)
    return options.rewrite ? eraseLine + line : line + "\n"
  }
}
