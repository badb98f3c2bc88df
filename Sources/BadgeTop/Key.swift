/// What the keyboard and the mouse said, decoded by the screen layer from the terminal's input.
public enum Key: Equatable, Sendable {
  case left, right, up, down, tab, backTab, pageUp, pageDown, home, end
  case enter, escape, backspace
  /// Ctrl-C read as a character (a terminal in raw mode sends it instead of SIGINT).
  case interrupt
  case character(Character)
  case mouse(MouseEvent)
  /// The terminal's size changed.
  case resize
}

/// A mouse report, in screen cells from the top left (0, 0).
public struct MouseEvent: Equatable, Sendable {
  public enum Action: Equatable, Sendable {
    /// The left button went down (or clicked, on terminals that report only clicks).
    case press
    /// The left button went up.
    case release
    case wheelUp, wheelDown
  }

  public var action: Action
  public var row: Int
  public var column: Int

  public init(_ action: Action, row: Int, column: Int) {
    self.action = action
    self.row = row
    self.column = column
  }
}
