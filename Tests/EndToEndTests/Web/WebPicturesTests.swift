import Foundation
import TestSupport
import Testing

/// Issue 31, test 5: the page at a phone's size (390×844) and a desktop's (1280×800), light and
/// dark, checked by pixel: the badge's red (#d32f2f) at the badge's place (the top right of
/// mail's tile), and the theme's background. `make pictures` keeps them in docs/pictures
/// (BADGED_SCREENSHOTS names the folder to write them to; a temporary one otherwise).
@Suite struct WebPicturesTests {
  @Test func phoneAndDesktopLightAndDarkShowTheBadgeInItsPlace() throws {
    let stage = try WebStage()
    try stage.send(["INCR mail 120", "INCR chat 12", "INCR ci 3", "INCR calendar"])
    let folder = try TemporaryFolder()
    let out = ProcessInfo.processInfo.environment["BADGED_SCREENSHOTS"] ?? folder.path
    let browser = try BrowserScenario("pictures", stage: stage, arguments: ["--out", out])
    let (lines, status) = try browser.rest()
    #expect(status == 0, "\(lines)")
    let expected = [
      ("web-phone-light.png", "390x844", "#f4f4f6"), ("web-phone-dark.png", "390x844", "#121214"),
      ("web-desktop-light.png", "1280x800", "#f4f4f6"), ("web-desktop-dark.png", "1280x800", "#121214"),
    ]
    for (name, size, background) in expected {
      guard let line = lines.first(where: { $0.hasPrefix("picture \(name) ") }) else {
        Issue.record("no \(name): \(lines)")
        continue
      }
      #expect(line.contains(" size=\(size) "), "\(line)")
      #expect(line.contains(" corner=\(background)"), "\(line)")
      // The badge's own red at its left end…
      #expect(line.contains(" pixel=#d32f2f "), "\(line)")
      // …in the top right corner of mail's tile (12 px inside its 1 px border), the "99+" capsule
      // wider than it is tall.
      let badge = rectangle(line, "badge")
      let tile = rectangle(line, "tile")
      #expect(badge.count == 4 && tile.count == 4, "\(line)")
      guard badge.count == 4, tile.count == 4 else { continue }
      #expect(abs((tile[0] + tile[2]) - (badge[0] + badge[2]) - 13) <= 1, "\(line)")
      #expect(abs(badge[1] - tile[1] - 13) <= 1, "\(line)")
      #expect(badge[2] > badge[3] && badge[3] == 26, "\(line)")
    }
  }

  /// A line's `key=x,y,width,height`.
  func rectangle(_ line: String, _ key: String) -> [Double] {
    line.split(separator: " ").first { $0.hasPrefix(key + "=") }?.dropFirst(key.count + 1).split(separator: ",")
      .compactMap { Double($0) } ?? []
  }
}
