import BadgeRender

/// How one cell looks: the colours and weight of `TextStyle`, plus the attributes a terminal
/// without colour still has.
public struct CellStyle: Hashable, Sendable {
  public var text: TextStyle
  /// Swapped foreground and background: the capsule and the wheel's selection without colour.
  public var inverse: Bool
  /// Faint: what stands for a faded colour without colour.
  public var dim: Bool

  public init(_ text: TextStyle = .plain, inverse: Bool = false, dim: Bool = false) {
    self.text = text
    self.inverse = inverse
    self.dim = dim
  }

  public static let plain = CellStyle()
}

/// One character cell.
public struct Cell: Equatable, Sendable {
  public var character: Character
  public var style: CellStyle

  public init(_ character: Character = " ", _ style: CellStyle = .plain) {
    self.character = character
    self.style = style
  }
}

/// A screen's worth of cells that the dashboard draws into, pure and comparable: the screen
/// layer copies it to the terminal (curses then writes only the cells that changed), and tests
/// read it as text.
///
/// Every glyph the dashboard draws is one cell wide; writes outside the canvas are clipped, so
/// a page sliding in from the side can be drawn at a negative column.
public struct Canvas: Equatable, Sendable {
  public let rows: Int
  public let columns: Int
  public private(set) var cells: [Cell]

  public init(rows: Int, columns: Int) {
    self.rows = max(rows, 0)
    self.columns = max(columns, 0)
    cells = Array(repeating: Cell(), count: self.rows * self.columns)
  }

  public subscript(row: Int, column: Int) -> Cell {
    get { cells[row * columns + column] }
    set { cells[row * columns + column] = newValue }
  }

  /// Writes `text` from (`row`, `column`) in `style`; returns the column after it.
  @discardableResult
  public mutating func put(_ text: String, row: Int, column: Int, _ style: CellStyle = .plain) -> Int {
    var x = column
    for character in text {
      if contains(row: row, column: x) {
        // Text without a background of its own lies on what is painted below it.
        let below = self[row, x].style
        var cell = Cell(character, style)
        if style.text.background == nil { cell.style.text.background = below.text.background }
        cell.style.inverse = style.inverse || below.inverse
        self[row, x] = cell
      }
      x += 1
    }
    return x
  }

  /// Writes styled runs (a badge as BadgeRender draws it); `dim` and `inverse` come from `base`,
  /// and a run without a background lies on what is below it.
  @discardableResult
  public mutating func put(_ text: StyledText, row: Int, column: Int, base: CellStyle = .plain) -> Int {
    var x = column
    for run in text.runs {
      var style = base
      style.text.foreground = run.style.foreground ?? base.text.foreground
      style.text.background = run.style.background ?? base.text.background
      style.text.bold = run.style.bold || base.text.bold
      x = put(run.text, row: row, column: x, style)
    }
    return x
  }

  /// Paints `width` cells from (`row`, `column`) with `style`, keeping their characters.
  public mutating func paint(row: Int, column: Int, width: Int, _ style: CellStyle) {
    for x in column..<(column + max(width, 0)) where contains(row: row, column: x) {
      self[row, x].style = style
    }
  }

  /// Fills a rectangle with blanks in `style`.
  public mutating func fill(row: Int, column: Int, width: Int, height: Int, _ style: CellStyle = .plain) {
    for y in row..<(row + max(height, 0)) {
      for x in column..<(column + max(width, 0)) where contains(row: y, column: x) { self[y, x] = Cell(" ", style) }
    }
  }

  /// The text of row `row`, trailing blanks dropped.
  public func text(row: Int) -> String {
    guard row >= 0, row < rows else { return "" }
    let line = String(cells[(row * columns)..<((row + 1) * columns)].map(\.character))
    return String(line.reversed().drop { $0 == " " }.reversed())
  }

  /// Every row's text, one line each.
  public var text: String { (0..<rows).map { text(row: $0) }.joined(separator: "\n") }

  public func contains(row: Int, column: Int) -> Bool {
    row >= 0 && row < rows && column >= 0 && column < columns
  }
}
