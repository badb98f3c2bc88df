import TestSupport
import Testing

@testable import BadgeRender

/// `RGB.contrastRatio`: WCAG 2's ratio of relative luminances, the figure `[tray]` checks its
/// text and badge colours with.
@Suite struct ContrastTests {
  /// The ratio in hundredths, as messages round it.
  static func hundredths(_ first: RGB, _ second: RGB) -> Int {
    Int((first.contrastRatio(second) * 100).rounded())
  }

  @Test func blackOnWhiteIsTwentyOne() {
    #expect(RGB(0, 0, 0).contrastRatio(RGB(0xFF, 0xFF, 0xFF)) == 21)
    #expect(RGB(0xFF, 0xFF, 0xFF).contrastRatio(RGB(0, 0, 0)) == 21)
  }

  @Test func aColourOnItselfIsOne() {
    #expect(RGB(0xD3, 0x2F, 0x2F).contrastRatio(RGB(0xD3, 0x2F, 0x2F)) == 1)
  }

  @Test func theTrayDefaultPassesAndTheSeedsRedDoesNot() {
    let white = RGB(0xFF, 0xFF, 0xFF)
    #expect(Self.hundredths(white, RGB(0xD3, 0x2F, 0x2F)) == 498)
    #expect(Self.hundredths(RGB(0xD3, 0x2F, 0x2F), white) == 498)
    #expect(Self.hundredths(white, RGB(0xFF, 0x3B, 0x30)) == 355)
  }

  @Test func luminanceFollowsTheSRGBCurve() {
    #expect(RGB(0, 0, 0).relativeLuminance == 0)
    #expect(RGB(0xFF, 0xFF, 0xFF).relativeLuminance == 1)
    // Below 0.04045 a channel is linear: 10/255/12.92 of pure green's 0.7152.
    expectClose(RGB(0, 10, 0).relativeLuminance, 0.7152 * 10 / 255 / 12.92, 1e-12)
    // #808080: ((128/255 + 0.055)/1.055)^2.4 = 0.2158605.
    expectClose(RGB(0x80, 0x80, 0x80).relativeLuminance, 0.2158605)
  }
}
