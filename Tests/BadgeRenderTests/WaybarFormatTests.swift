import Testing

@testable import BadgeRender

/// Waybar: one JSON object per line, Pango markup carrying size, alpha and rise in motion.
@Suite struct WaybarFormatTests {
  static func line(
    text: String, alt: String = "unread", tooltip: String = "mail: 4 unread",
    classes: String = "\"unread\"", percentage: Int = 4
  ) -> String {
    "{\"text\":\"\(text)\",\"alt\":\"\(alt)\",\"tooltip\":\"\(tooltip)\",\"class\":[\(classes)],\"percentage\":\(percentage)}\n"
  }

  @Test func restingLabelIsPlainText() {
    var watcher = ManualWatcher(.waybar)
    watcher.receive(snapshot(count: 4))
    #expect(watcher.draw() == Self.line(text: "4"))
  }

  /// (from, to, time, text): the peak carries the size and the arriving digit rises into
  /// place; in a roll up the leaving digit rises and fades, in a roll down it sinks; once
  /// settled the label is plain again.
  @Test(arguments: [
    (3, 4, 10.128, #"<span size=\"131%\"><span rise=\"-982\" alpha=\"81%\">4</span></span>"#),
    (3, 4, 10.05, #"<span size=\"111%\"><span rise=\"3974\" alpha=\"22%\">3</span></span>"#),
    (5, 4, 10.05, #"<span size=\"111%\"><span rise=\"-3974\" alpha=\"22%\">5</span></span>"#),
    (3, 4, 10.71, "4"),
  ])
  func countChange(from old: Int, to new: Int, at time: Double, text: String) {
    var watcher = ManualWatcher.countChanged(.waybar, from: old, to: new)
    watcher.advance(to: time)
    #expect(watcher.draw() == Self.line(text: text))
  }

  @Test func zeroIsEmptySoTheModuleHides() {
    var watcher = ManualWatcher(.waybar)
    watcher.receive(snapshot(count: 0))
    #expect(
      watcher.draw() == Self.line(text: "", alt: "zero", tooltip: "mail: no unread", classes: "\"zero\"", percentage: 0)
    )
  }

  @Test func clearingFadesBeforeTheModuleHides() {
    var watcher = ManualWatcher.countChanged(.waybar)
    watcher.advance(to: 11)
    watcher.receive(snapshot(count: 0))
    watcher.advance(to: 11.1)
    #expect(
      watcher.draw()
        == Self.line(
          text: "<span size=\\\"69%\\\" alpha=\\\"38%\\\">4</span>", alt: "zero", tooltip: "mail: no unread",
          classes: "\"zero\"", percentage: 0))
  }

  @Test func dotPulse() {
    var watcher = ManualWatcher(.waybar)
    watcher.receive(snapshot("alerts", count: 2, dot: true))
    watcher.receive(snapshot("alerts", count: 3, dot: true, pulseMs: 3000))
    watcher.advance(to: 0.4)
    #expect(
      watcher.draw()
        == Self.line(
          text: "<span size=\\\"125%\\\" alpha=\\\"70%\\\">•</span>", tooltip: "alerts: 3 unread",
          classes: "\"unread\",\"dot\",\"pulse\"", percentage: 3))
    watcher.advance(to: 3)
    #expect(
      watcher.draw()
        == Self.line(
          text: "•", tooltip: "alerts: 3 unread", classes: "\"unread\",\"dot\"", percentage: 3))
  }

  @Test func mutedAndOffline() {
    var muted = ManualWatcher(.waybar)
    muted.receive(snapshot(count: 4, muted: true))
    #expect(
      muted.draw()
        == Self.line(
          text: "<span alpha=\\\"50%\\\">4</span>", alt: "muted", tooltip: "mail: 4 unread, muted",
          classes: "\"unread\",\"muted\""))
    var offline = ManualWatcher(.waybar)
    offline.receive(snapshot(count: 0, online: false))
    #expect(
      offline.draw()
        == Self.line(
          text: "?", alt: "offline", tooltip: "mail: offline", classes: "\"zero\",\"offline\"", percentage: 0))
  }

  @Test func severalChannelsShareOneObject() {
    var watcher = ManualWatcher(.waybar)
    watcher.receive(snapshot(count: 4))
    watcher.receive(snapshot("ci", count: 120))
    watcher.receive(snapshot("chat", count: 0))
    #expect(
      watcher.draw()
        == Self.line(
          text: "mail 4 ci 99+", tooltip: "mail: 4 unread\\nci: 120 unread (shown as 99+)\\nchat: no unread",
          percentage: 100))
  }

  @Test func templateLiteralsAreEscapedForPango() throws {
    var watcher = ManualWatcher(.waybar, options: RenderOptions(template: try Template("<{label}> & co")))
    watcher.receive(snapshot(count: 4))
    #expect(watcher.draw() == Self.line(text: "&lt;4&gt; &amp; co"))
  }
}
