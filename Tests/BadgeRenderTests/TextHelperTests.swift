import TestSupport
import Testing

@testable import BadgeRender

@Suite struct DecimalFormatTests {
  @Test(arguments: [
    (1.3143400009705104, "1.314340"), (0, "0.000000"), (-0.0016169928, "-0.001617"),
    (-0.0000001, "0.000000"), (0.0000005, "0.000001"), (42, "42.000000"), (.nan, "0.000000"),
    (.infinity, "0.000000"), (123456789.1234567, "123456789.123457"),
  ])
  func sixDecimals(_ value: Double, _ expected: String) {
    #expect(DecimalFormat.fixed(value) == expected)
  }

  @Test func otherPlaces() {
    #expect(DecimalFormat.fixed(15.8818, places: 2) == "15.88")
    #expect(DecimalFormat.fixed(2.5, places: 0) == "3")
    #expect(DecimalFormat.fixed(1e20, places: 6) == "1e+20")
  }

  @Test func percent() {
    #expect(DecimalFormat.percent(1.3143) == 131)
    #expect(DecimalFormat.percent(0.005) == 1)
    #expect(DecimalFormat.percent(.nan) == 0)
  }
}

@Suite struct JSONObjectTests {
  @Test func escapesStrings() {
    #expect(JSONObject.quoted("a\"b\\c\nd\te\u{01}•") == "\"a\\\"b\\\\c\\nd\\te\\u0001•\"")
  }

  @Test func writesMembersInOrder() {
    var object = JSONObject()
    object.add("s", "x")
    object.add("i", 7)
    object.add("d", 1.5)
    object.add("b", false)
    object.add("a", ["p", "q"])
    #expect(object.text == "{\"s\":\"x\",\"i\":7,\"d\":1.500000,\"b\":false,\"a\":[\"p\",\"q\"]}")
    #expect(JSONObject().text == "{}")
  }
}

@Suite struct ColourTests {
  @Test func hexRoundTrips() {
    #expect(RGB(hex: "#e53935") == RGB(229, 57, 53))
    #expect(RGB(hex: "0A0b0C")?.hex == "#0a0b0c")
    #expect(RGB(hex: "#e5393") == nil)
    #expect(RGB(hex: "#gg0000") == nil)
    #expect(RGB(hex: "+12345") == nil)
  }

  @Test func fadesOverTheBackground() {
    let red = RGB(229, 57, 53)
    #expect(red.faded(over: RGB(0, 0, 0), opacity: 0.5) == RGB(115, 29, 27))
    #expect(red.faded(over: RGB(255, 255, 255), opacity: 0) == RGB(255, 255, 255))
    #expect(red.faded(over: RGB(0, 0, 0), opacity: 2) == red)
  }

  @Test func nearestXterm256() {
    #expect(RGB(229, 57, 53).xterm256 == 167)
    #expect(RGB(255, 255, 255).xterm256 == 231)
    #expect(RGB(0, 0, 0).xterm256 == 16)
    #expect(RGB(128, 128, 128).xterm256 == 244)
    #expect(RGB(95, 135, 175).xterm256 == 67)
  }
}

@Suite struct FrameRateTests {
  @Test func capsPerFormat() {
    #expect(FrameRate.framesPerSecond(for: .waybar) == 30)
    #expect(FrameRate.framesPerSecond(for: .term, requested: 120) == 60)
    #expect(FrameRate.framesPerSecond(for: .tmux, requested: 30) == 1)
    #expect(FrameRate.framesPerSecond(for: .plain, requested: 0) == 1)
    #expect(FrameRate.interval(for: .term, requested: 50) == 0.02)
    #expect(!OutputFormat.tmux.showsMotion)
    #expect(OutputFormat.waybar.showsMotion)
  }

  @Test func gridTimes() {
    expectClose(FrameRate.tick(after: 0.3, interval: 0.1), 0.4, 1e-12)
    expectClose(FrameRate.tick(after: 0.1 + 0.2, interval: 0.1), 0.4, 1e-12)
    expectClose(FrameRate.tick(after: 0.31, interval: 0.1), 0.4, 1e-12)
    expectClose(FrameRate.quantise(0.31, interval: 0.1), 0.4, 1e-12)
    expectClose(FrameRate.quantise(0.1 + 0.2, interval: 0.1), 0.3, 1e-12)
    #expect(FrameRate.tick(after: 5, interval: 1) == 6)
    #expect(FrameRate.quantise(5, interval: 1) == 5)
  }
}
