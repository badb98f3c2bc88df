import Foundation

/// A screenshot of a tray host's strip, read for the items' pixels: the badge's red capsule
/// and the icons around it.
struct TrayStrip: CustomStringConvertible {
  /// badged-tray's default badge colour, as the pixmaps carry it (design decision 3).
  static let badge = Colour("#D32F2F")

  let shot: Screenshot
  let background: Colour

  /// The icon the capsule is drawn on: the run of columns around the capsule's that hold
  /// pixels other than the strip's background (the host's other drawings stand apart), and
  /// the rows those pixels span.
  var icon: PixelBox? {
    guard let capsule else { return nil }
    let drawn = { (x: Int) in (0..<shot.height).contains { !shot.colour(x: x, y: $0).isNear(background, tolerance: 12) }
    }
    var (left, right) = (capsule.x, capsule.x + capsule.width - 1)
    while left > 0 && drawn(left - 1) { left -= 1 }
    while right < shot.width - 1 && drawn(right + 1) { right += 1 }
    let rows = (0..<shot.height).filter { y in
      (left...right).contains { !shot.colour(x: $0, y: y).isNear(background, tolerance: 12) }
    }
    guard let top = rows.first, let bottom = rows.last else { return nil }
    return PixelBox(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
  }

  /// Whether anything but the strip's background is drawn: an icon.
  var showsAnIcon: Bool { shot.count(background, tolerance: 12) < shot.width * shot.height }

  /// The pixels of the badge colour (scaled icons blend a capsule's edge: the inside keeps it).
  var capsule: PixelBox? { shot.box { $0.isNear(TrayStrip.badge, tolerance: 16) } }

  var badgePixels: Int { shot.count(TrayStrip.badge, tolerance: 16) }

  /// Whether the capsule sits at the top-right corner of the icon it is drawn on: its right
  /// and top edges within 2 px of the icon's, and its centre right of and above the icon's.
  var capsuleIsAtTopRight: Bool {
    guard let capsule, let icon else { return false }
    return abs((capsule.x + capsule.width) - (icon.x + icon.width)) <= 2 && abs(capsule.y - icon.y) <= 2
      && 2 * capsule.x + capsule.width > 2 * icon.x + icon.width
      && 2 * capsule.y + capsule.height < 2 * icon.y + icon.height
  }

  var description: String {
    "icon \(icon.map(String.init(describing:)) ?? "none"), capsule \(capsule.map(String.init(describing:)) ?? "none"), \(shot)"
  }
}

extension TrayHost {
  /// Takes strips until one satisfies `condition` and is the same as the one before it (what
  /// the host shows has settled), or 10 s pass; the last one and whether it did.
  func settledStrip(_ condition: (TrayStrip) -> Bool) throws -> (strip: TrayStrip, matched: Bool) {
    var previous: Screenshot?
    let take = { try screenshot() }
    let found = try pollScreenshot(take) { shot in
      defer { previous = shot }
      return condition(TrayStrip(shot: shot, background: stripBackground))
        && previous.map { shot.difference(from: $0) == 0 } == true
    }
    return (TrayStrip(shot: found.shot, background: stripBackground), found.matched)
  }
}
