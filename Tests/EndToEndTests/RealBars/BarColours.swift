/// The colours the real-bar tests look for.
enum BarColours {
  /// The bars' own background in the test setups.
  static let bar = Colour("#202020")
  /// A badge with unread items: badgectl's ink, and the Waybar CSS's `.unread` background.
  static let unread = Colour("#e53935")
  /// The Waybar CSS's and the yambar map's `pulse`.
  static let pulse = Colour("#ff9800")
  /// i3bar's default background of an urgent block.
  static let urgent = Colour("#900000")
}
