import BadgeRender
import BadgeTrayDraw
import Testing

@Suite struct TrayIconPainterTests {
  let painter = TrayIconPainter(colours: .standard)

  @Test func capsuleIsTheRestingHeightAtTheTopRightCorner() throws {
    let icon = painter.draw(countFrame("3"), glyph: .bell, size: 64)
    let box = try #require(Box(icon.covered(badgeRed)))
    #expect(abs(box.height - 27) <= 1)
    // Its flat top and bottom (if any) and the middle of its round ends are opaque badge colour.
    #expect(try #require(Box(icon.opaque(badgeRed))).height >= 25)
    #expect(box.maxX >= 62)
    #expect(box.minY <= 6)
    #expect(box.minX >= 32)
    #expect(box.maxY <= 32)
    // The text sits on the capsule.
    let text = try #require(Box(icon.opaque(RGB(0xFF, 0xFF, 0xFF))))
    #expect(text.minX > box.minX && text.maxX < box.maxX && text.minY > box.minY && text.maxY < box.maxY)
  }

  @Test func aWideLabelKeepsTheHeightAndGrowsLeftwards() throws {
    let three = try #require(Box(painter.draw(countFrame("3"), glyph: .bell, size: 64).covered(badgeRed)))
    let wide = painter.draw(countFrame("99+"), glyph: .bell, size: 64)
    let many = try #require(Box(wide.covered(badgeRed)))
    #expect(abs(many.height - 27) <= 1)
    // A capsule with a flat top: its opaque pixels are as tall too.
    #expect(abs(try #require(Box(wide.opaque(badgeRed))).height - 27) <= 1)
    #expect(many.width > three.width + 10)
    #expect(many.maxX >= 62)
    #expect(many.minX < three.minX)
  }

  @Test(arguments: [0.5, 1.3, 1.31]) func theBounceScalesTheCapsuleAboutItsCentre(scale: Double) throws {
    let resting = try #require(Box(painter.draw(countFrame("3"), glyph: .bell, size: 64).covered(badgeRed)))
    let icon = painter.draw(countFrame("3", scale: scale), glyph: .bell, size: 64)
    let box = try #require(Box(icon.covered(badgeRed)))
    let expected = Int((27 * scale).rounded())
    #expect(abs(box.height - expected) <= 1, "height \(box.height) at scale \(scale)")
    #expect(abs(TrayIconGeometry.capsuleHeight(size: 64, scale: scale) - 26.88 * scale) < 1e-9)
    // About the same centre (a pixel either way for the edges' rounding), inside the icon.
    #expect(abs((box.minY + box.maxY) - (resting.minY + resting.maxY)) <= 2)
    #expect(box.minY >= 0)
  }

  @Test func aHiddenFrameIsTheGlyphAlone() {
    let hidden = BadgeFrame(channel: "mail", count: 0, label: "")
    let icon = painter.draw(hidden, glyph: .bell, size: 64)
    #expect(icon.places { alpha, colour in alpha > 0 && colour == badgeRed }.isEmpty)
    #expect(icon.opaque(TrayColours.standard.glyph).count > 500)
    // Nothing above the glyph's square or right of it.
    #expect(icon.places { alpha, _ in alpha > 0 }.allSatisfy { $0.y >= 10 && $0.x < 54 })
  }

  @Test func aDotIsARoundBlobWithoutText() throws {
    let dot = BadgeFrame(channel: "ci", count: 2, label: "•", dot: true)
    let icon = painter.draw(dot, glyph: .bell, size: 64)
    let places = icon.covered(badgeRed)
    let box = try #require(Box(places))
    #expect(abs(box.height - 27) <= 1 && abs(box.width - 27) <= 1, "\(box)")
    // A disc fills π/4 of its box.
    let fill = Double(places.count) / Double(box.width * box.height)
    #expect(abs(fill - Double.pi / 4) < 0.06, "fill \(fill)")
    #expect(icon.opaque(RGB(0xFF, 0xFF, 0xFF)).isEmpty)
  }

  @Test func aPulsingDotHasARingAroundIt() {
    let still = BadgeFrame(channel: "ci", count: 2, label: "•", dot: true)
    var pulsing = still
    pulsing.pulsing = true
    pulsing.dotScale = 1.5
    pulsing.dotOpacity = 0.4
    func drawn(_ frame: BadgeFrame) -> Int {
      painter.draw(frame, glyph: .bell, size: 64).places { alpha, _ in alpha > 0 }.count
    }
    let ring = painter.draw(pulsing, glyph: .bell, size: 64).places { alpha, colour in
      (90...115).contains(alpha) && near(colour, badgeRed)
    }
    #expect(drawn(pulsing) > drawn(still) + 100)
    #expect(ring.count > 50)
  }

  @Test func mutedIsGreyAtHalfOpacity() {
    var muted = countFrame("3")
    muted.muted = true
    let icon = painter.draw(muted, glyph: .bell, size: 64)
    #expect(icon.places { _, colour in colour == badgeRed }.isEmpty)
    let grey = icon.places { alpha, colour in
      (126...129).contains(alpha) && abs(Int(colour.red) - 0x9E) <= 1 && colour.red == colour.green
        && colour.green == colour.blue
    }
    #expect(grey.count > 200)
  }

  @Test func offlineIsAGreyBadgeAndOpacityFadesIt() {
    var offline = countFrame("3")
    offline.online = false
    let grey = painter.draw(offline, glyph: .image(path: "/nonexistent.png"), size: 64)
    #expect(grey.opaque(badgeRed).isEmpty)
    #expect(
      grey.places { alpha, colour in alpha == 255 && colour == RGB(0x80, 0x80, 0x80) }
        .contains { $0.x > 56 && $0.y < 8 })
    var fading = countFrame("3")
    fading.opacity = 0.25
    let faded = painter.draw(fading, glyph: .bell, size: 64)
    #expect(faded.opaque(badgeRed).isEmpty)
    #expect(faded.places { alpha, colour in (63...65).contains(alpha) && near(colour, badgeRed) }.count > 100)
  }

  @Test func theColoursAreTheConfiguredOnes() {
    let colours = TrayColours(badge: RGB(0x15, 0x65, 0xC0), text: RGB(0, 0, 0), glyph: RGB(0, 0x80, 0))
    let icon = TrayIconPainter(colours: colours).draw(countFrame("7"), glyph: .bell, size: 64)
    #expect(icon.opaque(badgeRed).isEmpty)
    #expect(icon.opaque(colours.badge).count > 300)
    #expect(icon.opaque(colours.text).count > 10)
    #expect(icon.opaque(colours.glyph).count > 500)
    #expect(icon.opaque(RGB(0xFF, 0xFF, 0xFF)).isEmpty)
  }

  @Test func everySizeIsServed() {
    let icons = painter.drawAll(countFrame("99+"), glyph: .bell)
    #expect(icons.map(\.width) == TrayIconPainter.sizes.map(Int32.init))
    #expect(icons.map(\.height) == TrayIconPainter.sizes.map(Int32.init))
    for (icon, size) in zip(icons, TrayIconPainter.sizes) {
      #expect(icon.argb.count == size * size * 4)
      #expect(!icon.places { alpha, colour in alpha == 255 && colour == badgeRed }.isEmpty, "size \(size)")
    }
  }

  @Test func rollingDigitsAreClippedToTheCapsule() {
    let plain = painter.draw(countFrame("4"), glyph: .bell, size: 64)
    var settled = countFrame("4")
    settled.roll = Roll(from: "3", direction: .up, offset: 0)
    var halfway = settled
    halfway.roll = Roll(from: "3", direction: .up, offset: 0.5)
    // At offset 0 the outgoing digit is a whole capsule above: clipped away entirely.
    #expect(painter.draw(settled, glyph: .bell, size: 64) == plain)
    let moving = painter.draw(halfway, glyph: .bell, size: 64)
    #expect(moving != plain)
    let capsule = Box(plain.covered(badgeRed))
    let white = moving.opaque(RGB(0xFF, 0xFF, 0xFF))
    #expect(!white.isEmpty)
    if let capsule {
      #expect(white.allSatisfy { $0.y >= capsule.minY && $0.y <= capsule.maxY })
    }
  }
}
