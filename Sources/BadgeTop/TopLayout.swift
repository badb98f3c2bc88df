/// Where things are on the dashboard's screen, for drawing and for mouse hits alike.
///
/// ```
/// row 0        the segmented channel bar
/// row 1        a rule
/// rows 2…      the selected channel's page (name, big count, stepper, statistics)
/// last row     the key hints, or what went wrong
/// ```
/// Page positions are relative to the page's left edge, which moves while pages slide.
public struct TopLayout: Equatable, Sendable {
  public let rows: Int
  public let columns: Int

  public init(rows: Int, columns: Int) {
    self.rows = rows
    self.columns = columns
  }

  public static let barRow = 0
  public static let ruleRow = 1
  /// The page's first row: the channel's name and state.
  public static let titleRow = 3
  /// The big count's first row (it is `TermBadge.bigHeight` rows high).
  public static let countRow = 5
  /// The left margin of the page's content.
  public static let margin = 4
  /// The stepper's row, below the big count.
  public static let stepperRow = 11
  /// The stepper's buttons: `[ − ]` at the margin, `[ + ]` after the step text.
  public static let buttonWidth = 5
  public static let minusColumn = margin
  public static let plusColumn = margin + buttonWidth + 10

  /// The key hints' row.
  public var footerRow: Int { rows - 1 }

  /// The page's rows: from below the rule to above the footer.
  public var pageRows: Range<Int> { (TopLayout.ruleRow + 1)..<max(TopLayout.ruleRow + 1, rows - 1) }

  /// The number wheel's box: right of the count, as many rows as fit (odd, at most 9).
  public var wheelColumn: Int { min(TopLayout.margin + 44, max(0, columns - TopLayout.wheelWidth - 1)) }
  public static let wheelWidth = 17
  public var wheelRows: Int {
    let fit = max(1, pageRows.count - 4)
    let rows = min(9, fit)
    return rows % 2 == 1 ? rows : rows - 1
  }
  /// The wheel's first value row (below its top border).
  public var wheelTop: Int { TopLayout.titleRow + 1 }

  /// The columns of the statistics panel: right of the count when the screen is wide, below
  /// the stepper when not.
  public var statsOrigin: (row: Int, column: Int) {
    isWide ? (TopLayout.titleRow, TopLayout.wideStatsColumn) : (TopLayout.stepperRow + 3, TopLayout.margin)
  }

  /// The statistics panel's width.
  public var statsWidth: Int {
    isWide ? columns - TopLayout.wideStatsColumn - 2 : columns - 2 * TopLayout.margin
  }

  /// Whether the statistics go beside the count rather than below the stepper.
  private var isWide: Bool { columns >= 96 }
  private static let wideStatsColumn = 50
}
