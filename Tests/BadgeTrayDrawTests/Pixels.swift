import BadgeRender
import BadgeTrayDraw

/// Reading an icon's pixels back: which are a colour, and the box around them.
extension IconPixmap {
  /// The pixel at (x, y): alpha, then the straight colour.
  func pixel(_ x: Int, _ y: Int) -> (alpha: UInt8, colour: RGB) {
    let at = (y * Int(width) + x) * 4
    return (argb[at], RGB(argb[at + 1], argb[at + 2], argb[at + 3]))
  }

  /// Every pixel's place for which `matches` holds.
  func places(where matches: (UInt8, RGB) -> Bool) -> [(x: Int, y: Int)] {
    var found: [(x: Int, y: Int)] = []
    for y in 0..<Int(height) {
      for x in 0..<Int(width) {
        let pixel = pixel(x, y)
        if matches(pixel.alpha, pixel.colour) { found.append((x, y)) }
      }
    }
    return found
  }

  /// The pixels a shape of `colour` covers at least half of, drawn over nothing: how tall a
  /// shape is drawn, whatever its edges' anti-aliasing (a circle has only a few opaque pixels in
  /// its top and bottom rows).
  func covered(_ colour: RGB) -> [(x: Int, y: Int)] {
    places { alpha, pixel in alpha >= 128 && near(pixel, colour) }
  }

  /// The opaque pixels of exactly `colour`.
  func opaque(_ colour: RGB) -> [(x: Int, y: Int)] {
    places { alpha, pixel in alpha == 255 && pixel == colour }
  }
}

/// Whether two colours differ by at most `by` in each component (straight colours read back
/// from cairo's premultiplied pixels are off by one or two where alpha is low).
func near(_ one: RGB, _ other: RGB, by: Int = 2) -> Bool {
  abs(Int(one.red) - Int(other.red)) <= by && abs(Int(one.green) - Int(other.green)) <= by
    && abs(Int(one.blue) - Int(other.blue)) <= by
}

/// The smallest box holding every place (inclusive bounds), nil for none.
struct Box: Equatable {
  var minX: Int
  var minY: Int
  var maxX: Int
  var maxY: Int

  init?(_ places: [(x: Int, y: Int)]) {
    guard let first = places.first else { return nil }
    (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
    for place in places {
      minX = min(minX, place.x)
      minY = min(minY, place.y)
      maxX = max(maxX, place.x)
      maxY = max(maxY, place.y)
    }
  }

  var width: Int { maxX - minX + 1 }
  var height: Int { maxY - minY + 1 }
}

/// The default badge colour, as the tests look for it.
let badgeRed = RGB(0xD3, 0x2F, 0x2F)

/// A count badge at rest (or at `scale`), as the animator draws one.
func countFrame(_ label: String, scale: Double = 1) -> BadgeFrame {
  BadgeFrame(channel: "mail", count: Int(label.filter(\.isNumber)) ?? 0, label: label, scale: scale)
}
