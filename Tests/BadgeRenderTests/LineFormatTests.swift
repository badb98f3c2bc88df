import Testing

@testable import BadgeRender

/// polybar, tmux, i3blocks and plain: one line per update.
@Suite struct PolybarFormatTests {
  @Test func restPeakAndMuted() {
    var watcher = ManualWatcher(.polybar, at: 10)
    watcher.receive(snapshot(count: 3))
    #expect(watcher.draw() == "%{F#e53935}3%{F-}\n")
    watcher.receive(snapshot(count: 4))
    watcher.advance(to: 10.128)
    #expect(watcher.draw() == "%{F#e53935}%{+u}4%{-u}%{F-}\n")
    watcher.receive(snapshot(count: 4, muted: true))
    watcher.advance(to: 11)
    #expect(watcher.draw() == "%{F#731d1b}4%{F-}\n")
  }

  @Test func clickAreaAroundTheModule() {
    var watcher = ManualWatcher(.polybar, options: RenderOptions(clickCommand: "badgectl clear mail:work"))
    watcher.receive(snapshot(count: 4))
    #expect(watcher.draw() == "%{A1:badgectl clear mail\\:work:}%{F#e53935}4%{F-}%{A}\n")
    watcher.receive(snapshot(count: 0))
    watcher.advance(to: 1)
    #expect(watcher.draw() == "\n")  // an empty line hides the module
  }

  /// `{channel}` and `{total}` in the command give each channel a click area of its own that
  /// clears it up to the total shown.
  @Test func aClickAreaPerChannelClearsUpToTheTotalShown() {
    var watcher = ManualWatcher(
      .polybar, options: RenderOptions(clickCommand: "badgectl clear {channel} --upto {total}"))
    var mail = snapshot(count: 4)
    mail.total = 9
    watcher.receive(mail)
    watcher.receive(snapshot("ci", count: 1))  // no total: an older daemon
    #expect(
      watcher.draw() == "%{A1:badgectl clear mail --upto 9:}mail %{F#e53935}4%{F-}%{A} "
        + "%{A1:badgectl clear ci --upto 9223372036854775807:}ci %{F#e53935}1%{F-}%{A}\n")
  }

  @Test func literalTagOpenerCannotOpenATag() throws {
    var watcher = ManualWatcher(.polybar, options: RenderOptions(template: try Template("%{{F#fff}} {label}")))
    watcher.receive(snapshot(count: 4))
    #expect(watcher.draw() == "%%{O0}{F#fff} %{F#e53935}4%{F-}\n")
  }

  @Test func severalChannels() {
    var watcher = ManualWatcher(.polybar)
    watcher.receive(snapshot(count: 4))
    watcher.receive(snapshot("ci", count: 120))
    #expect(watcher.draw() == "mail %{F#e53935}4%{F-} ci %{F#e53935}99+%{F-}\n")
  }
}

@Suite struct TmuxFormatTests {
  /// tmux redraws once a second: its watcher runs without motion and draws end states.
  static func watcher() -> ManualWatcher {
    ManualWatcher(.tmux, animator: AnimatorOptions(noMotion: true))
  }

  @Test func endStatesWithBlinkDuringThePulse() {
    var watcher = Self.watcher()
    watcher.receive(snapshot(count: 3))
    #expect(watcher.draw() == "#[fg=#e53935]3#[default]\n")
    watcher.receive(snapshot(count: 4, pulseMs: 3000))
    #expect(watcher.draw() == "#[fg=#e53935,blink]4#[default]\n")
    #expect(watcher.nextWake == nil)
    watcher.receive(snapshot(count: 4, pulseMs: 0))
    #expect(watcher.draw() == "#[fg=#e53935]4#[default]\n")
    watcher.receive(snapshot(count: 0))
    #expect(watcher.draw() == "\n")
  }

  @Test func hashIsEscaped() throws {
    var watcher = ManualWatcher(.tmux, options: RenderOptions(template: try Template("#{count} {label}")))
    watcher.receive(snapshot(count: 4, online: false))
    #expect(watcher.draw() == "##4 #[fg=#808080]4?#[default]\n")
  }

  @Test func boldThroughTheBounceWhenDrawnMidMotion() {
    var watcher = ManualWatcher(.tmux)
    watcher.receive(snapshot(count: 3))
    watcher.receive(snapshot(count: 4))
    watcher.advance(to: 0.128)
    #expect(watcher.draw() == "#[fg=#e53935,bold]4#[default]\n")
  }
}

@Suite struct I3blocksFormatTests {
  @Test func urgentIsAStringDuringThePulse() {
    var watcher = ManualWatcher(.i3blocks)
    watcher.receive(snapshot("alerts", count: 2, dot: true))
    #expect(watcher.draw() == "{\"full_text\":\"•\",\"short_text\":\"•\",\"color\":\"#e53935\"}\n")
    watcher.receive(snapshot("alerts", count: 3, dot: true, pulseMs: 3000))
    watcher.advance(to: 0.4)
    #expect(watcher.draw() == "{\"full_text\":\"•\",\"short_text\":\"•\",\"color\":\"#a02825\",\"urgent\":\"true\"}\n")
    watcher.advance(to: 3)
    #expect(watcher.draw() == "{\"full_text\":\"•\",\"short_text\":\"•\",\"color\":\"#e53935\"}\n")
  }

  @Test func severalChannelsAndShortText() {
    var watcher = ManualWatcher(.i3blocks)
    watcher.receive(snapshot(count: 0))
    watcher.receive(snapshot("ci", count: 120, muted: true))
    watcher.receive(snapshot("chat", count: 2))
    #expect(watcher.draw() == "{\"full_text\":\"ci 99+ chat 2\",\"short_text\":\"99+ 2\",\"color\":\"#731d1b\"}\n")
  }
}

@Suite struct PlainFormatTests {
  @Test func glyphsOnly() throws {
    var watcher = ManualWatcher(.plain, at: 10)
    watcher.receive(snapshot(count: 3))
    #expect(watcher.draw() == "3\n")
    watcher.receive(snapshot(count: 4))
    watcher.advance(to: 10.05)
    #expect(watcher.draw() == "3\n")  // the old digit still owns its cell
    watcher.advance(to: 10.128)
    #expect(watcher.draw() == "4\n")
    watcher.receive(snapshot(count: 4, online: false))
    #expect(watcher.draw() == "4?\n")
  }

  @Test func severalChannelsAndTemplates() throws {
    var watcher = ManualWatcher(.plain)
    watcher.receive(snapshot(count: 4))
    watcher.receive(snapshot("ci", count: 0))
    watcher.receive(snapshot("build", count: 120))
    #expect(watcher.draw() == "mail 4 build 99+\n")
    var text = ManualWatcher(.plain, options: RenderOptions(template: try Template("{text}"), separator: "; "))
    text.receive(snapshot(count: 4))
    text.receive(snapshot("ci", count: 120))
    #expect(text.draw() == "mail: 4 unread; ci: 120 unread (shown as 99+)\n")
  }

  @Test func templateCannotSplitTheLine() throws {
    var watcher = ManualWatcher(.plain, options: RenderOptions(template: try Template("a\nb{label}\u{1B}")))
    watcher.receive(snapshot(count: 4))
    #expect(watcher.draw() == "ab4\n")
  }
}
