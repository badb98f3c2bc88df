import Glibc

/// A 24-bit colour.
public struct RGB: Sendable, Hashable {
  public var red: UInt8
  public var green: UInt8
  public var blue: UInt8

  public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// Parses `#rrggbb` (the `#` is optional); `nil` for anything else.
  public init?(hex: String) {
    let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
    guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16)
    else { return nil }
    self.init(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
  }

  /// `#rrggbb` in lower case, as every bar and tmux read it.
  public var hex: String {
    "#"
      + [red, green, blue].map { byte in
        let text = String(byte, radix: 16)
        return byte < 16 ? "0" + text : text
      }.joined()
  }

  /// This colour seen at `opacity` over `background`: the way a terminal or bar that has no
  /// alpha shows a fade.
  public func faded(over background: RGB, opacity: Double) -> RGB {
    let alpha = min(max(opacity, 0), 1)
    func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
      UInt8((Double(bottom) + (Double(top) - Double(bottom)) * alpha).rounded())
    }
    return RGB(mix(red, background.red), mix(green, background.green), mix(blue, background.blue))
  }

  /// The contrast ratio of this colour and `other` as WCAG 2 defines it: (L1 + 0.05) / (L2 +
  /// 0.05) of the lighter and the darker relative luminance, from 1 (the same) to 21 (black and
  /// white). Text needs at least 4.5 on its background (WCAG's AA for normal text).
  public func contrastRatio(_ other: RGB) -> Double {
    let (first, second) = (relativeLuminance, other.relativeLuminance)
    return (max(first, second) + 0.05) / (min(first, second) + 0.05)
  }

  /// WCAG 2's relative luminance: each sRGB channel made linear, weighted 0.2126, 0.7152,
  /// 0.0722.
  public var relativeLuminance: Double {
    func linear(_ byte: UInt8) -> Double {
      let value = Double(byte) / 255
      return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
  }

  /// The nearest colour of the xterm 256-colour palette (the 6×6×6 cube or the grey ramp).
  public var xterm256: Int {
    let levels = [0, 95, 135, 175, 215, 255]
    func nearestLevel(_ value: UInt8) -> Int {
      levels.indices.min { abs(levels[$0] - Int(value)) < abs(levels[$1] - Int(value)) }!
    }
    let (r, g, b) = (nearestLevel(red), nearestLevel(green), nearestLevel(blue))
    let cube = RGB(UInt8(levels[r]), UInt8(levels[g]), UInt8(levels[b]))
    let average = (Int(red) + Int(green) + Int(blue)) / 3
    let greyStep = min(max((average - 8 + 5) / 10, 0), 23)
    let greyLevel = UInt8(8 + 10 * greyStep)
    let grey = RGB(greyLevel, greyLevel, greyLevel)
    return distance(to: grey) < distance(to: cube) ? 232 + greyStep : 16 + 36 * r + 6 * g + b
  }

  /// Squared distance in RGB space.
  private func distance(to other: RGB) -> Int {
    let dr = Int(red) - Int(other.red)
    let dg = Int(green) - Int(other.green)
    let db = Int(blue) - Int(other.blue)
    return dr * dr + dg * dg + db * db
  }
}

/// The colours badges are drawn with.
public struct Palette: Sendable, Equatable {
  /// The badge: the pill in a terminal, the label's colour in a bar.
  public var badge: RGB
  /// The digits on a terminal pill.
  public var text: RGB
  /// The badge of a channel whose daemon went away.
  public var offline: RGB
  /// What the badge fades towards: the terminal's or the bar's background.
  public var background: RGB

  public init(badge: RGB, text: RGB, offline: RGB, background: RGB) {
    self.badge = badge
    self.text = text
    self.offline = offline
    self.background = background
  }

  public static let standard = Palette(
    badge: RGB(0xE5, 0x39, 0x35), text: RGB(0xFF, 0xFF, 0xFF), offline: RGB(0x80, 0x80, 0x80),
    background: RGB(0, 0, 0))
}
