import BadgeRender

/// The colours of a tray icon.
public struct TrayColours: Sendable, Equatable {
  /// The capsule and the dot.
  public var badge: RGB
  /// The count on the capsule.
  public var text: RGB
  /// The bell.
  public var glyph: RGB

  public init(badge: RGB, text: RGB, glyph: RGB) {
    self.badge = badge
    self.text = text
    self.glyph = glyph
  }

  /// A red badge with white text (4.98:1, above WCAG's 4.5:1 for text) on a mid grey bell that
  /// reads on light and dark panels alike.
  public static let standard = TrayColours(
    badge: RGB(0xD3, 0x2F, 0x2F), text: RGB(0xFF, 0xFF, 0xFF), glyph: RGB(0x80, 0x80, 0x80))

  /// The badge of a muted group.
  public static let muted = RGB(0x9E, 0x9E, 0x9E)
  /// The badge of a group whose daemon went away.
  public static let offline = RGB(0x80, 0x80, 0x80)
}

/// What the icon's base is.
public enum TrayGlyph: Sendable, Equatable {
  /// A bell drawn with paths, in the glyph colour.
  case bell
  /// A PNG file (an app's icon), scaled into the glyph's square; the bell when it cannot be read.
  case image(path: String)
}

/// One StatusNotifierItem `IconPixmap` entry, `(iiay)`.
public struct IconPixmap: Sendable, Equatable {
  public var width: Int32
  public var height: Int32
  /// Per pixel the bytes A, R, G, B (network order), straight alpha, rows top to bottom.
  public var argb: [UInt8]

  public init(width: Int32, height: Int32, argb: [UInt8]) {
    self.width = width
    self.height = height
    self.argb = argb
  }
}
