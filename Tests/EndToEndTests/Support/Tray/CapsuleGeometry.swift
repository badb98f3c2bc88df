import Foundation

/// The capsule's drawn height in a pixmap, as design decision 3 of badged-tray gives it: 0.42 of
/// the icon's side times the badge's scale, about a centre that does not move. A capsule
/// scaled past the icon's edge is cut there, so the height seen in the pixmap is the part of
/// it inside the icon.
enum CapsuleGeometry {
  /// The resting capsule's height, as a fraction of the icon's side.
  static let heightFraction = 0.42

  /// The height in pixels a frame at `scale` shows in a `size` px pixmap, whose capsule is
  /// centred `centreY` px from the top (where the resting frame has its centre).
  static func visibleHeight(size: Int, scale: Double, centreY: Double) -> Double {
    let height = heightFraction * Double(size) * scale
    return min(Double(size), centreY + height / 2) - max(0, centreY - height / 2)
  }

  /// Whether a measured `capsule` is within 1 px of the height `scale` gives (rounded), seen
  /// through a 64 px pixmap whose resting capsule is `resting`.
  static func fits(_ capsule: TrayEvent.Capsule?, scale: Double, resting: TrayEvent.Capsule) -> Bool {
    guard let capsule else { return false }
    let centreY = Double(resting.y) + Double(resting.h) / 2
    return abs(Double(capsule.h) - visibleHeight(size: 64, scale: scale, centreY: centreY).rounded()) <= 1
  }
}
