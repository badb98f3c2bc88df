import BadgeCore
import BadgeRender

/// Draws the dashboard: the model at one instant as a canvas.
public enum TopView {
  /// Colours of the dashboard's own parts (the badges bring theirs).
  enum Ink {
    static let capsule = RGB(0x3A, 0x3F, 0x4B)
    static let text = RGB(0xE6, 0xE6, 0xE6)
    static let quiet = RGB(0x8A, 0x8A, 0x8A)
    static let disabled = RGB(0x4A, 0x4A, 0x4A)
    static let button = RGB(0x2E, 0x5E, 0xAA)
    static let wheelSelection = RGB(0x2E, 0x5E, 0xAA)
  }

  static func style(_ colour: RGB?, bold: Bool = false, background: RGB? = nil, dim: Bool = false) -> CellStyle {
    CellStyle(TextStyle(foreground: colour, background: background, bold: bold), dim: dim)
  }

  /// The whole screen at `time`.
  public static func canvas(_ model: TopModel, at time: Double) -> Canvas {
    let screen = model.screen
    var canvas = Canvas(rows: screen.rows, columns: screen.columns)
    guard screen.rows >= 3, screen.columns >= 10 else {
      canvas.put("too small", row: 0, column: 0)
      return canvas
    }
    drawBar(model, at: time, into: &canvas)
    canvas.put(String(repeating: "─", count: screen.columns), row: TopLayout.ruleRow, column: 0, style(Ink.disabled))
    drawPages(model, at: time, into: &canvas)
    if let wheel = model.wheel { drawWheel(wheel, model, centre: model.wheelCentre(at: time), into: &canvas) }
    if model.showsHelp { drawHelp(model, into: &canvas) }
    drawFooter(model, into: &canvas)
    return canvas
  }

  // MARK: - The segmented bar

  static func drawBar(_ model: TopModel, at time: Double, into canvas: inout Canvas) {
    let scroll = Int(model.selection.scroll(at: time).rounded())
    let row = TopLayout.barRow
    if !model.names.isEmpty {
      drawCapsule(model.selection.indicator(at: time), row: row, shift: -scroll, model, into: &canvas)
    }
    for (index, name) in model.names.enumerated() {
      let segment = model.layout.segments[index]
      // Only the segments in view are drawn (a badge's bounce reaches a little past its own):
      // with thousands of channels a frame still measures and draws a screenful of badges.
      let reach = 2 * SegmentLayout.padding
      guard segment.x + segment.width + reach > scroll, segment.x - reach < scroll + canvas.columns else { continue }
      let x = segment.x - scroll + SegmentLayout.padding
      let selected = index == model.selection.selected
      let after = canvas.put(name, row: row, column: x, style(selected ? Ink.text : Ink.quiet, bold: selected))
      guard let frame = model.badgeFrame(name, at: time) else { continue }
      let badge = TermBadge.styled(frame, palette: model.options.palette, colour: model.options.colour)
      // A badge wider than at rest (the bounce's caps) grows to both sides of its place.
      let rest = model.layout.contentWidth(at: index) - name.count - 1
      let extra = max(0, badge.plainText.count - max(rest, 0))
      canvas.put(badge, row: row, column: after + 1 - extra / 2)
    }
    // Arrows where the bar goes on beyond the screen.
    if scroll > 0 { canvas.put("‹", row: row, column: 0, style(Ink.text, bold: true)) }
    if model.layout.contentWidth - scroll > canvas.columns {
      canvas.put("›", row: row, column: canvas.columns - 1, style(Ink.text, bold: true))
    }
  }

  /// A segmented control's capsule under `indicator` (content cells, moved by `shift`): a
  /// painted body with half-block caps on its ends, inverse without colour.
  static func drawCapsule(
    _ indicator: (x: Double, width: Double), row: Int, shift: Int, _ model: TopModel, into canvas: inout Canvas
  ) {
    let left = Int(indicator.x.rounded()) + shift
    let right = Int((indicator.x + indicator.width).rounded()) + shift - 1
    let colour = model.options.colour != .none
    let body = colour ? style(nil, background: Ink.capsule) : CellStyle(inverse: true)
    canvas.paint(row: row, column: left + 1, width: right - left - 1, body)
    canvas.put("▐", row: row, column: left, colour ? style(Ink.capsule) : .plain)
    canvas.put("▌", row: row, column: right, colour ? style(Ink.capsule) : .plain)
  }

  // MARK: - Pages

  /// Every page in view: the selected one at rest, two side by side while they slide.
  static func drawPages(_ model: TopModel, at time: Double, into canvas: inout Canvas) {
    guard !model.names.isEmpty else {
      let text = model.online ? "No channels yet: 'badgectl incr <channel>' makes one." : "Waiting for badged…"
      canvas.put(text, row: TopLayout.titleRow, column: TopLayout.margin, style(Ink.quiet))
      return
    }
    let position = model.selection.page(at: time)
    for (index, name) in model.names.enumerated() where abs(Double(index) - position) < 1 {
      let left = Int(((Double(index) - position) * Double(canvas.columns)).rounded())
      drawPage(name, model, at: time, left: left, into: &canvas)
      if let stats = model.stats, stats.channel == name {
        drawStats(stats, model, at: time, left: left, into: &canvas)
      }
    }
    // The arrows that turn the page.
    let middle = TopLayout.countRow + 2
    if model.selection.selected > 0 { canvas.put("‹", row: middle, column: 0, style(Ink.quiet)) }
    if model.selection.selected < model.names.count - 1 {
      canvas.put("›", row: middle, column: canvas.columns - 1, style(Ink.quiet))
    }
  }

  static func drawPage(_ name: String, _ model: TopModel, at time: Double, left: Int, into canvas: inout Canvas) {
    guard let badge = model.badgeFrame(name, at: time), let count = model.countFrame(name, at: time) else { return }
    let x = left + TopLayout.margin
    var title = canvas.put(name, row: TopLayout.titleRow, column: x, style(Ink.text, bold: true))
    let states = [
      badge.online ? nil : "offline", badge.muted ? "muted" : nil, badge.pulsing ? "new" : nil,
      badge.dot ? "dot" : nil, model.snapshot(name)?.silenced != nil ? "do not disturb" : nil,
    ].compactMap { $0 }
    if !states.isEmpty {
      title = canvas.put(
        "  " + states.joined(separator: " · "), row: TopLayout.titleRow, column: title, style(Ink.quiet))
    }
    // The count, large, with rolling digits; its badge beside it as the bar shows it.
    let digits = TermBadge.bigRows(count, palette: model.options.palette)
    var right = x
    for (offset, row) in digits.enumerated() {
      right = max(right, canvas.put(row, row: TopLayout.countRow + offset, column: x))
    }
    let styled = TermBadge.styled(badge, palette: model.options.palette, colour: model.options.colour)
    canvas.put(styled, row: TopLayout.countRow + 2, column: right + 3)
    drawStepper(badge, step: model.step(of: name), model, left: left, into: &canvas)
  }

  static func drawStepper(_ frame: BadgeFrame, step: Int, _ model: TopModel, left: Int, into canvas: inout Canvas) {
    let row = TopLayout.stepperRow
    let colour = model.options.colour != .none
    func button(_ glyph: String, enabled: Bool, column: Int) {
      let look =
        colour
        ? style(enabled ? Ink.text : Ink.disabled, bold: enabled, background: enabled ? Ink.button : nil)
        : CellStyle(inverse: enabled, dim: !enabled)
      canvas.put("[ \(glyph) ]", row: row, column: left + column, look)
    }
    let live = frame.online
    button("−", enabled: live && Stepper.canDecrement(frame.count), column: TopLayout.minusColumn)
    let text = "step \(step)"
    let gap = TopLayout.plusColumn - TopLayout.minusColumn - TopLayout.buttonWidth
    canvas.put(
      text, row: row, column: left + TopLayout.minusColumn + TopLayout.buttonWidth + (gap - text.count) / 2,
      style(Ink.quiet))
    button("+", enabled: live && Stepper.canIncrement(frame.count), column: TopLayout.plusColumn)
  }

  // MARK: - Statistics

  /// The statistics panel: its period control, then `StatsPanel`'s lines at this instant of the
  /// count-up (a bar and the totals, and the column chart of arrivals per day).
  static func drawStats(_ pane: StatsPane, _ model: TopModel, at time: Double, left: Int, into canvas: inout Canvas) {
    let origin = model.screen.statsOrigin
    let x = left + origin.column
    drawCapsule(pane.control.indicator(at: time), row: origin.row, shift: x, model, into: &canvas)
    for (index, period) in StatsPane.periods.enumerated() {
      let segment = StatsPane.controlLayout.segments[index]
      let selected = period == pane.period
      canvas.put(
        period.rawValue, row: origin.row, column: x + segment.x + SegmentLayout.padding,
        style(selected ? Ink.text : Ink.quiet, bold: selected))
    }
    guard let figures = pane.stats else {
      canvas.put("…", row: origin.row + 2, column: x, style(Ink.quiet))
      return
    }
    let lines = StatsPanel(stats: [figures], width: model.screen.statsWidth).lines(at: time, countUp: pane.countUp)
    for (offset, line) in lines.enumerated() {
      let row = origin.row + 2 + offset
      guard row < model.screen.footerRow else { break }
      let look: CellStyle
      switch offset {
      case 0: look = style(Ink.text, bold: true)
      case 1: look = style(Ink.quiet)
      case 2: look = style(Ink.text)
      default: look = style(model.options.palette.badge)
      }
      canvas.put(line, row: row, column: x, look)
      if offset == 2 {
        // The bar in the badge's colour, the name and numbers around it in the text's.
        for (index, character) in line.enumerated() where barGlyphs.contains(character) {
          canvas.paint(row: row, column: x + index, width: 1, style(model.options.palette.badge))
        }
      }
    }
  }

  /// The glyphs a `BlockGlyphs` bar is made of.
  static let barGlyphs = Set("█▏▎▍▌▋▊▉")

  // MARK: - Overlays

  static func drawWheel(_ wheel: NumberWheel, _ model: TopModel, centre: Int?, into canvas: inout Canvas) {
    let screen = model.screen
    let x = screen.wheelColumn
    let width = TopLayout.wheelWidth
    let rows = screen.wheelRows
    let top = screen.wheelTop - 1
    canvas.fill(row: top, column: x, width: width, height: rows + 3)
    canvas.put("┌" + String(repeating: "─", count: width - 2) + "┐", row: top, column: x, style(Ink.quiet))
    canvas.put(" pick ", row: top, column: x + 2, style(Ink.text, bold: true))
    let colour = model.options.colour != .none
    for (offset, row) in wheel.window(rows: rows, centre: centre).enumerated() {
      let y = top + 1 + offset
      canvas.put("│", row: y, column: x, style(Ink.quiet))
      canvas.put("│", row: y, column: x + width - 1, style(Ink.quiet))
      guard let value = row.value else { continue }
      let text = String(value)
      let padded = String(repeating: " ", count: max(0, width - 4 - text.count)) + text
      if row.distance == 0 {
        let look =
          colour
          ? style(Ink.text, bold: true, background: Ink.wheelSelection)
          : CellStyle(TextStyle(bold: true), inverse: true)
        canvas.put("›" + padded + " ", row: y, column: x + 1, look)
      } else {
        // Neighbours fade with their distance from the selection.
        let fade = max(0.15, 1 - 0.22 * Double(abs(row.distance)))
        let ink = Ink.text.faded(over: model.options.palette.background, opacity: fade)
        canvas.put(" " + padded, row: y, column: x + 1, colour ? style(ink) : CellStyle(dim: abs(row.distance) > 1))
      }
    }
    let bottom = top + rows + 1
    canvas.put("└" + String(repeating: "─", count: width - 2) + "┘", row: bottom, column: x, style(Ink.quiet))
    let hint = wheel.typed.isEmpty ? "↵ set  esc" : "typed \(wheel.typed)"
    canvas.put(hint, row: bottom + 1, column: x + 1, style(Ink.quiet))
  }

  /// The keys, as `?` shows them.
  public static let keyHelp: [(keys: String, what: String)] = [
    ("← → Tab ⇧Tab", "previous / next channel"),
    ("1…9 0", "channel 1 to 10"),
    ("- +", "step the count (hold: faster, ×10 after a second)"),
    ("p", "pick a count on the wheel: ↑ ↓ PgUp PgDn, digits, ↵ sets, Esc cancels"),
    ("c", "clear the count"),
    ("m", "mute or unmute"),
    ("s", "statistics: arrivals, clears and peak; [ ] or a click change the period"),
    ("?", "this help"),
    ("q Ctrl-C", "quit"),
  ]

  static func drawHelp(_ model: TopModel, into canvas: inout Canvas) {
    let width = min(canvas.columns - 4, 76)
    let height = keyHelp.count + 4
    let x = max(0, (canvas.columns - width) / 2)
    let y = max(TopLayout.ruleRow + 1, (canvas.rows - height) / 2)
    canvas.fill(row: y, column: x, width: width, height: height)
    canvas.put("┌" + String(repeating: "─", count: width - 2) + "┐", row: y, column: x, style(Ink.quiet))
    canvas.put(" keys ", row: y, column: x + 2, style(Ink.text, bold: true))
    for (offset, entry) in keyHelp.enumerated() {
      let row = y + 2 + offset
      canvas.put(entry.keys, row: row, column: x + 2, style(Ink.text, bold: true))
      canvas.put(entry.what, row: row, column: x + 18, style(Ink.quiet))
    }
    canvas.put("└" + String(repeating: "─", count: width - 2) + "┘", row: y + height - 1, column: x, style(Ink.quiet))
  }

  static func drawFooter(_ model: TopModel, into canvas: inout Canvas) {
    let row = model.screen.footerRow
    if let message = model.message {
      canvas.put(message, row: row, column: 0, style(RGB(0xE5, 0x39, 0x35), bold: true))
    } else if !model.online {
      canvas.put("offline: reconnecting to badged…", row: row, column: 0, style(Ink.quiet, bold: true))
    } else {
      let hints =
        model.wheel != nil
        ? "↑↓ PgUp PgDn scroll · digits jump · ↵ set · esc cancel"
        : "←→ channel · -+ step · p pick · c clear · m mute · s stats · ? keys · q quit"
      canvas.put(hints, row: row, column: 0, style(Ink.quiet))
    }
  }
}
