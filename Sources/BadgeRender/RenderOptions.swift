/// How a terminal shows colour; the caller decides from `NO_COLOR`, `TERM` and whether the
/// output is a terminal.
public enum ColourMode: String, Sendable, CaseIterable {
  /// 24-bit colour (`COLORTERM=truecolor`).
  case trueColour = "truecolor"
  /// The xterm 256-colour palette.
  case palette256 = "256"
  /// No escape codes for colour or weight: brackets and padding carry the look.
  case none
}

/// The icons the `{icon}` placeholder shows, per state.
public struct IconSet: Sendable, Equatable {
  public var unread: String
  public var muted: String
  public var zero: String
  public var offline: String

  public init(unread: String, muted: String, zero: String, offline: String) {
    self.unread = unread
    self.muted = muted
    self.zero = zero
    self.offline = offline
  }

  public static let standard = IconSet(unread: "●", muted: "◌", zero: "○", offline: "⊘")

  /// The icon of `state`.
  public func icon(for state: BadgeState) -> String {
    switch state {
    case .unread: return unread
    case .muted: return muted
    case .zero: return zero
    case .offline: return offline
    }
  }
}

/// How frames become text, for every format.
public struct RenderOptions: Sendable, Equatable {
  /// The text of one channel; `nil` picks `{label}` for one channel and `{channel} {label}`
  /// for several (a terminal always names its channels).
  public var template: Template?
  /// What joins the channels of one line.
  public var separator: String
  public var palette: Palette
  public var icons: IconSet
  /// `term`: how colour is shown.
  public var colour: ColourMode
  /// `term`: rewrite one line in place (`\r`, erase line) rather than print a line per frame.
  public var rewrite: Bool
  /// `term`: draw counts in a five-row digit font whose digits really slide.
  public var big: Bool
  /// `polybar`: a command run on a left click (`%{A1:cmd:}`).
  public var clickCommand: String?

  public init(
    template: Template? = nil, separator: String = " ", palette: Palette = .standard,
    icons: IconSet = .standard, colour: ColourMode = .trueColour, rewrite: Bool = true,
    big: Bool = false, clickCommand: String? = nil
  ) {
    self.template = template
    self.separator = separator
    self.palette = palette
    self.icons = icons
    self.colour = colour
    self.rewrite = rewrite
    self.big = big
    self.clickCommand = clickCommand
  }
}
