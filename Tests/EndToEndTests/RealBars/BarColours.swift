import Foundation

/// The colours the real-bar tests look for.
enum BarColours {
  /// The bars' own background in the test setups (the theme's).
  static var bar: Colour { BarTheme.current.background }
  /// A badge with unread items: badgectl's ink, and the Waybar CSS's `.unread` background.
  static let unread = Colour("#e53935")
  /// The Waybar CSS's and the yambar map's `pulse`.
  static let pulse = Colour("#ff9800")
  /// i3bar's default background of an urgent block.
  static let urgent = Colour("#900000")
}

/// The bars' own colours in the real-bar tests: dark unless `BADGED_BAR_THEME=light`, so that
/// `make pictures` shows each bar in both from the same runs (the badge's colours are the
/// snippets' in docs/BARS.md, whatever the theme).
struct BarTheme {
  let name: String
  let background: Colour
  let foreground: Colour

  static let dark = BarTheme(name: "dark", background: Colour("#202020"), foreground: Colour("#ffffff"))
  static let light = BarTheme(name: "light", background: Colour("#f2f2f2"), foreground: Colour("#202020"))

  static let current: BarTheme = ProcessInfo.processInfo.environment["BADGED_BAR_THEME"] == "light" ? .light : .dark

  /// The background as yambar writes colours: `rrggbbaa`.
  var yambarBackground: String { String(background.description.dropFirst()) + "ff" }
}
