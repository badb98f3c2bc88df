import BadgeRender
import BadgeTop
import CNcurses
import Glibc

/// The terminal, through ncursesw: the one place that calls curses.
///
/// It takes over the terminal (the alternate screen, no echo, keys one at a time, the mouse)
/// until `end()`, which gives it back as it was; copies a `Canvas` into curses' screen, which
/// writes only the cells that changed; and decodes what the terminal sends into `Key`s. It
/// never blocks: input is read only when the event loop saw standard input readable.
public final class CursesScreen {
  private let screen: OpaquePointer
  private var ended = false
  /// Colour pairs handed out so far, by (foreground, background) colour number; -1 is the
  /// terminal's default colour.
  private var pairs: [Int64: Int32] = [:]
  /// How many colours the terminal has (0 without colour).
  public let colours: Int
  /// The canvas shown last: an identical one is not copied again.
  private var shown: Canvas?

  /// Why the terminal cannot be used.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// Takes over the terminal on standard input and output.
  ///
  /// - Parameter colour: whether colour may be used at all (`NO_COLOR` says no).
  public init(colour: Bool) throws(Failure) {
    badge_use_utf8_locale()
    guard let output = fdopen(1, "w"), let input = fdopen(0, "r") else {
      throw Failure(description: "cannot open the terminal")
    }
    guard let screen = newterm(nil, output, input) else {
      throw Failure(
        description: "the terminal type '\(String(cString: getenv("TERM") ?? strdup("")))' is unknown to terminfo")
    }
    self.screen = screen
    _ = set_term(screen)
    cbreak()
    noecho()
    nonl()
    _ = keypad(badge_stdscr(), true)
    _ = nodelay(badge_stdscr(), true)
    // An Escape key alone is told from the start of a key's sequence after this many ms.
    set_escdelay(25)
    _ = curs_set(0)
    _ = mouseinterval(0)
    _ = mousemask(badge_mouse_events(), nil)
    if colour && has_colors() {
      start_color()
      use_default_colors()
      colours = Int(badge_colors())
    } else {
      colours = 0
    }
  }

  deinit { end() }

  /// The colour mode to draw with: direct colour, the 256-colour palette, or none (fewer than
  /// 256 colours: weight and inverse carry the look).
  public var colourMode: ColourMode {
    colours >= 1 << 24 ? .trueColour : colours >= 256 ? .palette256 : .none
  }

  /// The terminal's size.
  public var size: (rows: Int, columns: Int) { (Int(badge_lines()), Int(badge_cols())) }

  /// Reads the terminal's new size from the tty and tells curses (after SIGWINCH).
  public func resize() {
    var rows: Int32 = 0
    var columns: Int32 = 0
    badge_window_size(1, &rows, &columns)
    if rows > 0 && columns > 0 { _ = resizeterm(rows, columns) }
    shown = nil
    _ = clearok(badge_stdscr(), true)
  }

  /// Shows `canvas`: copies its cells into curses and lets curses write what changed.
  public func show(_ canvas: Canvas) {
    guard !ended, canvas != shown else { return }
    let rows = min(canvas.rows, size.rows)
    let columns = min(canvas.columns, size.columns)
    for row in 0..<rows {
      for column in 0..<columns {
        let cell = canvas[row, column]
        put(cell, row: row, column: column)
      }
    }
    _ = wnoutrefresh(badge_stdscr())
    _ = doupdate()
    shown = canvas
  }

  private func put(_ cell: Cell, row: Int, column: Int) {
    var attributes: attr_t = 0
    if cell.style.text.bold { attributes |= badge_a_bold() }
    if cell.style.inverse { attributes |= badge_a_reverse() }
    if cell.style.dim { attributes |= badge_a_dim() }
    let pair = colourPair(cell.style.text)
    var text: [wchar_t] = cell.character.unicodeScalars.prefix(4).map { wchar_t(bitPattern: $0.value) } + [0]
    // The last cell of the screen: curses moves the cursor past it, which scrolls nothing but
    // returns an error; the character is drawn all the same.
    _ = badge_put_cell(Int32(row), Int32(column), &text, attributes, pair)
  }

  /// The pair for a style's colours, made on first use; 0 (the default colours) without colour.
  private func colourPair(_ style: TextStyle) -> Int32 {
    guard colours > 0 else { return 0 }
    let foreground = style.foreground.map(colourNumber) ?? -1
    let background = style.background.map(colourNumber) ?? -1
    if foreground == -1 && background == -1 { return 0 }
    let key = Int64(foreground) << 32 | Int64(UInt32(bitPattern: background))
    if let pair = pairs[key] { return pair }
    let number = Int32(pairs.count + 1)
    guard number < badge_color_pairs(), init_extended_pair(number, foreground, background) == OK else { return 0 }
    pairs[key] = number
    return number
  }

  private func colourNumber(_ colour: RGB) -> Int32 {
    if colours >= 1 << 24 {
      return Int32(colour.red) << 16 | Int32(colour.green) << 8 | Int32(colour.blue)
    }
    return Int32(colour.xterm256)
  }

  /// Every key and mouse report waiting on standard input.
  public func readKeys() -> [Key] {
    var keys: [Key] = []
    var character: wint_t = 0
    while true {
      let result = wget_wch(badge_stdscr(), &character)
      if result == ERR { break }
      if result == KEY_CODE_YES {
        if let key = decode(function: Int32(character)) { keys.append(key) }
      } else if let key = decode(character: character) {
        keys.append(key)
      }
    }
    return keys
  }

  private func decode(character: wint_t) -> Key? {
    switch character {
    case 3: return .interrupt
    case 9: return .tab
    case 10, 13: return .enter
    case 27: return .escape
    case 8, 127: return .backspace
    default:
      guard let scalar = Unicode.Scalar(UInt32(character)) else { return nil }
      return .character(Character(scalar))
    }
  }

  private func decode(function code: Int32) -> Key? {
    switch code {
    case KEY_LEFT: return .left
    case KEY_RIGHT: return .right
    case KEY_UP: return .up
    case KEY_DOWN: return .down
    case KEY_BTAB: return .backTab
    case KEY_PPAGE: return .pageUp
    case KEY_NPAGE: return .pageDown
    case KEY_HOME: return .home
    case KEY_END: return .end
    case KEY_ENTER: return .enter
    case KEY_BACKSPACE: return .backspace
    case KEY_RESIZE: return .resize
    case KEY_MOUSE: return mouse()
    default: return nil
    }
  }

  private func mouse() -> Key? {
    var event = MEVENT()
    guard getmouse(&event) == OK else { return nil }
    let row = Int(event.y)
    let column = Int(event.x)
    let state = event.bstate
    if state & badge_button4_pressed() != 0 { return .mouse(MouseEvent(.wheelUp, row: row, column: column)) }
    if state & badge_button5_pressed() != 0 { return .mouse(MouseEvent(.wheelDown, row: row, column: column)) }
    if state & (badge_button1_pressed() | badge_button1_clicked()) != 0 {
      return .mouse(MouseEvent(.press, row: row, column: column))
    }
    if state & badge_button1_released() != 0 { return .mouse(MouseEvent(.release, row: row, column: column)) }
    return nil
  }

  /// Gives the terminal back: the normal screen, echo, the cursor, no mouse reports. Safe to
  /// call more than once.
  public func end() {
    guard !ended else { return }
    ended = true
    _ = mousemask(0, nil)
    _ = curs_set(1)
    endwin()
    delscreen(screen)
  }
}
