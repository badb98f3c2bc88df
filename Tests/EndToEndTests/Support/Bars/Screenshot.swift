import Foundation

/// A colour in a screenshot.
struct Colour: Equatable, CustomStringConvertible {
  let red: Int
  let green: Int
  let blue: Int

  init(_ hex: String) {
    let value = Int(hex.dropFirst(hex.hasPrefix("#") ? 1 : 0), radix: 16) ?? 0
    red = value >> 16 & 0xFF
    green = value >> 8 & 0xFF
    blue = value & 0xFF
  }

  init(red: Int, green: Int, blue: Int) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// Whether `other` is within `tolerance` of this colour in every channel.
  func isNear(_ other: Colour, tolerance: Int) -> Bool {
    abs(red - other.red) <= tolerance && abs(green - other.green) <= tolerance && abs(blue - other.blue) <= tolerance
  }

  var description: String {
    "#" + [red, green, blue].map { String(format: "%02x", $0) }.joined()
  }
}

/// A screenshot of a bar, taken in the PPM format (grim `-t ppm`, ImageMagick `import
/// ppm:`) so that the test can read its pixels without an image library.
struct Screenshot: CustomStringConvertible, CustomDebugStringConvertible {
  let width: Int
  let height: Int
  private let pixels: [UInt8]

  /// Parses a binary PPM (P6, 8 bits a channel).
  init(ppm data: Data) throws {
    let bytes = [UInt8](data)
    var index = 0
    func token() -> String {
      var text = ""
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "#") {  // a comment, to the end of the line
          while index < bytes.count && bytes[index] != 0x0A { index += 1 }
        } else if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
          if !text.isEmpty { break }
        } else {
          text.append(Character(UnicodeScalar(byte)))
        }
        index += 1
      }
      return text
    }
    guard token() == "P6", let width = Int(token()), let height = Int(token()), token() == "255" else {
      throw TestFailure("not an 8-bit binary PPM (\(bytes.count) bytes)")
    }
    index += 1  // the single blank after the maximum value
    guard bytes.count - index >= width * height * 3 else { throw TestFailure("a truncated PPM") }
    self.width = width
    self.height = height
    pixels = Array(bytes[index..<(index + width * height * 3)])
  }

  /// A short summary for failure messages (the pixels themselves would drown them).
  var description: String {
    var colours: [Int: Int] = [:]
    for pixel in stride(from: 0, to: pixels.count, by: 3) {
      colours[Int(pixels[pixel]) << 16 | Int(pixels[pixel + 1]) << 8 | Int(pixels[pixel + 2]), default: 0] += 1
    }
    let common = colours.sorted { $0.value > $1.value }.prefix(4)
      .map { "\(Colour(red: $0.key >> 16, green: $0.key >> 8 & 0xFF, blue: $0.key & 0xFF)) ×\($0.value)" }
    return "Screenshot \(width)×\(height), \(colours.count) colours, most: \(common.joined(separator: ", "))"
  }

  var debugDescription: String { description }

  func colour(x: Int, y: Int) -> Colour {
    let offset = (y * width + x) * 3
    return Colour(red: Int(pixels[offset]), green: Int(pixels[offset + 1]), blue: Int(pixels[offset + 2]))
  }

  /// How many pixels are within `tolerance` of `colour`.
  func count(_ colour: Colour, tolerance: Int = 6) -> Int {
    let (r, g, b) = (Int32(colour.red), Int32(colour.green), Int32(colour.blue))
    let limit = Int32(tolerance)
    return pixels.withUnsafeBufferPointer { raw in
      var count = 0
      var index = 0
      while index < raw.count {
        if abs(Int32(raw[index]) - r) <= limit && abs(Int32(raw[index + 1]) - g) <= limit
          && abs(Int32(raw[index + 2]) - b) <= limit
        {
          count += 1
        }
        index += 3
      }
      return count
    }
  }

  /// The centre of the pixels within `tolerance` of `colour`, if any.
  func centre(of colour: Colour, tolerance: Int = 6) -> (x: Int, y: Int)? {
    box { colour.isNear($0, tolerance: tolerance) }.map { ($0.x + ($0.width - 1) / 2, $0.y + ($0.height - 1) / 2) }
  }

  /// The smallest rectangle holding every pixel whose colour satisfies `selected`, if any.
  func box(where selected: (Colour) -> Bool) -> PixelBox? {
    var (minX, minY, maxX, maxY) = (width, height, -1, -1)
    for y in 0..<height {
      for x in 0..<width where selected(colour(x: x, y: y)) {
        (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
      }
    }
    guard maxX >= 0 else { return nil }
    return PixelBox(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
  }

  /// How many pixels differ from `other`'s.
  func difference(from other: Screenshot) -> Int {
    guard width == other.width, height == other.height else { return width * height }
    var count = 0
    for pixel in stride(from: 0, to: pixels.count, by: 3) {
      let same = pixels[pixel..<(pixel + 3)].elementsEqual(other.pixels[pixel..<(pixel + 3)])
      if !same { count += 1 }
    }
    return count
  }
}

/// A rectangle of pixels: its top-left corner and its size.
struct PixelBox: Equatable, CustomStringConvertible {
  let x: Int
  let y: Int
  let width: Int
  let height: Int

  var description: String { "\(width)×\(height) at (\(x), \(y))" }
}

/// Takes screenshots with `take` every 50 ms until one satisfies `condition` or `timeout`
/// seconds pass; returns the last one taken and whether it satisfied the condition.
func pollScreenshot(
  timeout: Double = 10, _ take: () throws -> Screenshot, until condition: (Screenshot) -> Bool
) throws -> (shot: Screenshot, matched: Bool) {
  let deadline = Date().addingTimeInterval(timeout)
  while true {
    let shot = try take()
    if condition(shot) { return (shot, true) }
    if Date() > deadline { return (shot, false) }
    usleep(50_000)
  }
}
