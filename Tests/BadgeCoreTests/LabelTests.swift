import Testing

@testable import BadgeCore

@Suite struct LabelTests {
  /// count, max_label, style, the label the spec gives.
  static let cases: [(Int, Int, ChannelStyle, String)] = [
    (0, 99, .count, ""), (1, 99, .count, "1"), (42, 99, .count, "42"), (98, 99, .count, "98"),
    (99, 99, .count, "99"), (100, 99, .count, "99+"), (2_147_483_647, 99, .count, "99+"),
    (1, 1, .count, "1"), (2, 1, .count, "1+"), (9, 9, .count, "9"), (10, 9, .count, "9+"),
    (1000, 999, .count, "999+"), (999, 999, .count, "999"),
    (2_147_483_647, 2_147_483_647, .count, "2147483647"), (0, 1, .count, ""),
    (0, 99, .dot, ""), (1, 99, .dot, "•"), (100, 99, .dot, "•"), (2_147_483_647, 1, .dot, "•"),
  ]

  @Test(arguments: cases)
  func labelFollowsTheSpec(_ count: Int, _ maxLabel: Int, _ style: ChannelStyle, _ expected: String) {
    let settings = ChannelSettings(maxLabel: maxLabel, style: style, pulseMs: 3000, muted: false)
    #expect(Label.text(count: count, settings: settings) == expected)
    #expect(Label.text(count: count, maxLabel: maxLabel, style: style) == expected)
    var buffer = Array("label=".utf8)
    buffer.appendWritten(maxLength: 16) { Label.write(count: count, unseen: count, settings: settings, to: &$0) }
    #expect(String(decoding: buffer, as: UTF8.self) == "label=" + expected)
  }

  @Test func defaultStyleIsCount() {
    #expect(Label.text(count: 100, maxLabel: 99) == "99+")
    #expect(Label.text(count: 5, settings: .defaults) == "5")
    #expect(Label.text(count: 100, settings: .defaults) == "99+")
  }

  @Test func dotIsTheBulletCharacter() {
    #expect(Label.dot == "\u{2022}")
    #expect(Array(Label.dot.utf8) == [0xE2, 0x80, 0xA2])
  }

  @Test func mutedDoesNotChangeTheLabel() {
    let muted = ChannelSettings(maxLabel: 99, style: .count, pulseMs: 3000, muted: true)
    #expect(Label.text(count: 3, settings: muted) == "3")
  }
}
