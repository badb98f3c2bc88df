import BadgeMotion
import BadgeRender
import BadgeTop
import Foundation
import TestSupport
import Testing

/// The web page's motion table (web/motion.js, the JSON object between its two marker comments)
/// is rendered from the Swift engine's own constants and curves, so the page's curves are never
/// typed twice: this test renders the table and fails, showing the first difference, when
/// web/motion.js holds another. `make web-motion` writes it again (this test with
/// BADGED_WRITE_WEB_MOTION=1).
///
/// The samples (every curve at t = 0…1 step 0.05, from BadgeMotion) are what the browser test
/// compares the page's own closed forms with (WebMotionTests, scenario `curves`).
@Suite struct WebMotionTableTests {
  static let begin = "/* motion-table:begin */ "
  static let end = " /* motion-table:end */"

  @Test func webMotionJSHoldsTheTableRenderedFromTheSwiftEngine() throws {
    let path = Repository.path("web/motion.js")
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let expected = WebMotionTable.render()
    guard let start = text.range(of: Self.begin),
      let stop = text.range(of: Self.end, range: start.upperBound..<text.endIndex)
    else {
      Issue.record("web/motion.js has no \(Self.begin)…\(Self.end) markers")
      return
    }
    let found = String(text[start.upperBound..<stop.lowerBound])
    if found != expected, ProcessInfo.processInfo.environment["BADGED_WRITE_WEB_MOTION"] == "1" {
      try (String(text[..<start.upperBound]) + expected + String(text[stop.lowerBound...]))
        .write(toFile: path, atomically: true, encoding: .utf8)
      return
    }
    let foundLines = found.split(separator: "\n", omittingEmptySubsequences: false)
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let first =
      zip(foundLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      ?? min(foundLines.count, expectedLines.count)
    #expect(
      found == expected,
      """
      web/motion.js's motion table differs from the Swift engine's at line \(first + 1):
        web/motion.js: \(first < foundLines.count ? String(foundLines[first]) : "(end)")
        expected:      \(first < expectedLines.count ? String(expectedLines[first]) : "(end)")
      Regenerate it with `make web-motion`.
      """)
  }

  /// The figures MOTION.md gives, read back from the rendered table: the bounce's scale at
  /// 0.05…0.30 s, easeOut at 0.25, 0.5 and 0.75, the pulse's progress at 0.2, 0.4 and 0.6 s.
  @Test func theTablesSamplesAreMotionMdsFigures() {
    let table = WebMotionTable.render()
    #expect(table.contains("\"bounce\": [1, 1.109683, 1.266336, 1.275239, 1.090879, 0.984894, 0.972267,"))
    #expect(table.contains("\"easeOut\": [0, 0.082242, 0.160572, 0.235869, 0.308366, 0.378138,"))
    #expect(table.contains(" 0.684643, ") && table.contains(" 0.906535, "))
    #expect(table.contains("\"pulse\": [0, 0.007587, 0.031114, 0.071509, 0.129162, 0.203543, 0.292771, 0.393305, 0.5,"))
    #expect(table.contains(" 0.870838, "))
  }
}

/// The table's text: constants of BadgeMotions, TopMotions, CountUp and HoldRepeat, and samples.
enum WebMotionTable {
  static let step = 0.05
  static let springs: [(String, Animation)] = [
    ("bounceUp", BadgeMotions.bounceUp), ("bounceBack", BadgeMotions.bounceBack), ("roll", BadgeMotions.roll),
    ("fade", BadgeMotions.fade), ("selection", TopMotions.selection),
    // MOTION.md: the number picker settles on its value with bouncy(0.35).
    ("wheelSelect", Animation.bouncy(duration: 0.35)),
  ]
  static let curves: [(String, TimingCurve)] = [
    ("linear", .linear), ("easeIn", .easeIn), ("easeOut", .easeOut), ("easeInOut", .easeInOut),
  ]
  static let timings: [(String, Animation, String)] = [
    (
      "pulse", BadgeMotions.pulse,
      ", \"scale\": \(number(BadgeMotions.pulseScale)), \"opacity\": \(number(BadgeMotions.pulseOpacity))"
    ),
    ("countUp", CountUp.animation, ""), ("wheelScroll", TopMotions.wheelScroll, ""),
  ]

  static func render() -> String {
    var lines = ["{", "  \"epsilon\": \(number(Spring.defaultEpsilon)),", "  \"springs\": {"]
    lines += list(
      springs.map { name, animation in
        let spring = self.spring(animation)
        return
          "    \"\(name)\": {\"response\": \(number(spring.response)), \"dampingRatio\": \(number(spring.dampingRatio))}"
      })
    lines += ["  },"]
    lines += [
      "  \"bounce\": {\"peakScale\": \(number(BadgeMotions.bouncePeakScale)), \"returnDelay\": \(number(BadgeMotions.bounceReturnDelay))},",
      "  \"hiddenScale\": \(number(BadgeMotions.hiddenScale)),",
      "  \"mutedOpacity\": \(number(BadgeMotions.mutedOpacity)),",
      "  \"curves\": {",
    ]
    lines += list(
      curves.map { name, curve in
        "    \"\(name)\": [\([curve.p1.x, curve.p1.y, curve.p2.x, curve.p2.y].map(number).joined(separator: ", "))]"
      })
    lines += ["  },", "  \"timings\": {"]
    lines += list(
      timings.map { name, animation, extra in
        let (curve, duration) = timing(animation)
        return "    \"\(name)\": {\"curve\": \"\(curve)\", \"duration\": \(number(duration))\(extra)}"
      })
    lines += ["  },"]
    lines += [
      "  \"hold\": {\"repeatDelay\": \(number(HoldRepeat.repeatDelay)), \"repeatInterval\": \(number(HoldRepeat.repeatInterval)), "
        + "\"accelerateAfter\": \(number(HoldRepeat.accelerateAfter)), \"acceleratedFactor\": \(HoldRepeat.acceleratedFactor)},",
      "  \"sampleStep\": \(number(step)),",
      "  \"samples\": {",
    ]
    var samples: [(String, (Double) -> Double)] = [("bounce", bounce)]
    samples += springs.map { name, animation in { animation.progress(at: $0) } }.enumerated().map {
      (springs[$0].0, $1)
    }
    samples += curves.map { name, curve in (name, { curve.value(at: $0) }) }
    samples += [
      ("pulse", { BadgeMotions.pulse.progress(at: $0) }), ("countUp", { CountUp.animation.progress(at: $0) }),
    ]
    lines += list(
      samples.map { name, function in
        "    \"\(name)\": [\((0...20).map { function(Double($0) * step) }.map(number).joined(separator: ", "))]"
      })
    lines += ["  }", "}"]
    return lines.joined(separator: "\n")
  }

  /// The badge's scale `time` seconds after a count change, as BadgeAnimator moves it.
  static func bounce(_ time: Double) -> Double {
    var scale = AnimatedValue(1)
    scale.animate(to: BadgeMotions.bouncePeakScale, with: BadgeMotions.bounceUp, at: 0)
    scale.animate(to: 1, with: BadgeMotions.bounceBack, at: BadgeMotions.bounceReturnDelay)
    return scale.value(at: time)
  }

  static func spring(_ animation: Animation) -> Spring {
    guard case .spring(let spring) = animation.curve else { fatalError("not a spring: \(animation)") }
    return spring
  }

  static func timing(_ animation: Animation) -> (String, Double) {
    guard case .timing(let curve, let duration) = animation.curve, let name = curves.first(where: { $0.1 == curve })?.0
    else { fatalError("not a named timing curve: \(animation)") }
    return (name, duration)
  }

  /// Lines separated by commas, as JSON wants them.
  static func list(_ items: [String]) -> [String] {
    items.enumerated().map { $0 == items.count - 1 ? $1 : $1 + "," }
  }

  /// A number with at most 6 decimals and no trailing zeros: 0.3, 1.109683, 10.
  static func number(_ value: Double) -> String {
    var text = String(format: "%.6f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text == "-0" ? "0" : text
  }
}
