import BadgeCore

/// The number wheel: a vertical list of counts around a selected one, as a picker shows it.
///
/// Only the rows in view exist (`window(rows:)` computes them from the selected value), so the
/// whole range 0–2147483647 costs the same as ten numbers, at either end.
public struct NumberWheel: Equatable, Sendable {
  /// The values the wheel offers: every count the daemon takes.
  public static let range = 0...Limits.maxCount

  /// The selected value.
  public private(set) var value: Int
  /// The digits typed since the wheel opened or last scrolled; they name `value`.
  public private(set) var typed = ""

  public init(value: Int) {
    self.value = NumberWheel.clamp(value)
  }

  /// One row of the wheel: a value (nil beyond either end of the range) and its distance from
  /// the selected row, negative above it.
  public struct Row: Equatable, Sendable {
    public var value: Int?
    public var distance: Int

    public init(value: Int?, distance: Int) {
      self.value = value
      self.distance = distance
    }
  }

  /// Scrolls by `rows` (negative: towards smaller values), stopping at the range's ends.
  public mutating func scroll(by rows: Int) {
    typed = ""
    let (sum, overflow) = value.addingReportingOverflow(rows)
    value = overflow ? (rows < 0 ? NumberWheel.range.lowerBound : NumberWheel.range.upperBound) : NumberWheel.clamp(sum)
  }

  /// Takes a typed digit: the digits typed so far name the value, up to the range's end.
  public mutating func type(_ digit: Character) {
    guard digit.isASCII, digit.isWholeNumber else { return }
    let next = typed == "0" ? String(digit) : typed + String(digit)
    guard let parsed = Int(next), parsed <= NumberWheel.range.upperBound else { return }
    typed = next
    value = parsed
  }

  /// Takes back the last typed digit (Backspace); with none left the value stays.
  public mutating func erase() {
    guard !typed.isEmpty else { return }
    typed.removeLast()
    if let parsed = Int(typed) { value = parsed } else if typed.isEmpty { value = 0 }
  }

  /// The `rows` rows in view (an odd number keeps the selection in the middle), top to bottom,
  /// around `centre` (the value passing the middle while the wheel scrolls; `value` at rest).
  public func window(rows: Int, centre: Int? = nil) -> [Row] {
    let above = (max(rows, 1) - 1) / 2
    let middle = centre ?? value
    return (0..<max(rows, 1)).map { row in
      let distance = row - above
      let candidate = middle.addingReportingOverflow(distance)
      let inRange = !candidate.overflow && NumberWheel.range.contains(candidate.partialValue)
      return Row(value: inRange ? candidate.partialValue : nil, distance: distance)
    }
  }

  private static func clamp(_ value: Int) -> Int {
    min(max(value, range.lowerBound), range.upperBound)
  }
}
