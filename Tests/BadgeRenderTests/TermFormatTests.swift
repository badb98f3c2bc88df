import Testing

@testable import BadgeRender

/// The terminal, one line, checked verbatim at chosen times of a manual clock.
@Suite struct TermFormatTests {
  static let erase = "\r\(esc)[2K"
  /// The resting pill: white digits on the badge red.
  static let pill = "\(esc)[38;2;255;255;255;48;2;229;57;53m"
  static let boldPill = "\(esc)[1;38;2;255;255;255;48;2;229;57;53m"
  static let reset = "\(esc)[0m"
  static let rest4 = erase + "mail " + pill + " 4 " + reset

  /// mail goes from 3 to 4 (unless told otherwise) at t = 10.
  static func changed(from old: Int = 3, to new: Int = 4, options: RenderOptions = RenderOptions()) -> ManualWatcher {
    ManualWatcher.countChanged(.term, from: old, to: new, options: options)
  }

  @Test func restingBadge() {
    var watcher = ManualWatcher(.term)
    watcher.receive(snapshot(count: 4))
    #expect(watcher.draw() == Self.rest4)
  }

  @Test func peakOfTheBounceIsBoldWithHalfBlockCaps() {
    var watcher = Self.changed()
    watcher.advance(to: 10.128)
    let caps = "\(esc)[38;2;229;57;53m"
    #expect(
      watcher.draw()
        == Self.erase + "mail " + caps + "▐" + Self.reset + Self.boldPill + " " + Self.reset
        + "\(esc)[1;38;2;250;217;216;48;2;229;57;53m4" + Self.reset + Self.boldPill + " " + Self.reset
        + caps + "▌" + Self.reset)
  }

  @Test func settledBadgeIsTheRestingOne() {
    var watcher = Self.changed()
    watcher.advance(to: 10.71)
    #expect(watcher.draw() == Self.rest4)
    #expect(watcher.nextWake == nil)
  }

  @Test func rollUpInProgressFadesTheOldDigitOut() {
    var watcher = Self.changed()
    watcher.advance(to: 10.05)
    #expect(
      watcher.draw()
        == Self.erase + "mail " + Self.boldPill + " " + Self.reset
        + "\(esc)[1;38;2;235;101;98;48;2;229;57;53m3" + Self.reset + Self.boldPill + " " + Self.reset)
  }

  @Test func rollDownHandsEveryChangedColumnOver() {
    var watcher = Self.changed(from: 10, to: 9)
    watcher.advance(to: 10.05)
    #expect(
      watcher.draw()
        == Self.erase + "mail " + Self.boldPill + " " + Self.reset
        + "\(esc)[1;38;2;235;101;98;48;2;229;57;53m10" + Self.reset + Self.boldPill + " " + Self.reset)
    watcher.advance(to: 10.4)
    #expect(watcher.draw() == Self.erase + "mail " + Self.pill + "  9 " + Self.reset)  // "1" gone
    watcher.advance(to: 10.8)
    #expect(watcher.draw() == Self.erase + "mail " + Self.pill + " 9 " + Self.reset)
  }

  @Test func clearingToZeroFadesTheOldLabelOut() {
    var watcher = Self.changed(from: 4, to: 3)
    watcher.advance(to: 20)
    watcher.receive(snapshot(count: 0))
    watcher.advance(to: 20.1)
    #expect(watcher.draw() == Self.erase + "mail \(esc)[38;2;97;97;97;48;2;87;22;20m3" + Self.reset)
    watcher.advance(to: 20.48)
    #expect(watcher.draw() == Self.erase + "mail ")
    #expect(watcher.nextWake == nil)
  }

  @Test func dotPulsesThenStaysStill() {
    var watcher = ManualWatcher(.term)
    watcher.receive(snapshot("alerts", count: 2, dot: true))
    watcher.receive(snapshot("alerts", count: 3, dot: true, pulseMs: 3000))
    watcher.advance(to: 0.4)
    #expect(watcher.draw() == Self.erase + "alerts \(esc)[38;2;160;40;37m●" + Self.reset)
    watcher.advance(to: 0.8)
    #expect(watcher.draw() == Self.erase + "alerts \(esc)[38;2;92;23;21m●" + Self.reset)
    watcher.advance(to: 1.5)
    #expect(watcher.draw() == Self.erase + "alerts \(esc)[38;2;225;56;52m•" + Self.reset)
    watcher.advance(to: 3)
    #expect(watcher.draw() == Self.erase + "alerts \(esc)[38;2;229;57;53m•" + Self.reset)
    #expect(watcher.nextWake == nil)
  }

  @Test func mutedIsDimmed() {
    var watcher = ManualWatcher(.term)
    watcher.receive(snapshot(count: 4, muted: true))
    #expect(watcher.draw() == Self.erase + "mail \(esc)[38;2;128;128;128;48;2;115;29;27m 4 " + Self.reset)
  }

  @Test func offlineIsGreyWithAQuestionMark() {
    var watcher = ManualWatcher(.term)
    watcher.receive(snapshot(count: 4, online: false))
    #expect(watcher.draw() == Self.erase + "mail \(esc)[38;2;255;255;255;48;2;128;128;128m 4? " + Self.reset)
    var empty = ManualWatcher(.term)
    empty.receive(snapshot(count: 0, online: false))
    #expect(empty.draw() == Self.erase + "mail \(esc)[38;2;255;255;255;48;2;128;128;128m ? " + Self.reset)
  }

  @Test func zeroShowsTheChannelAlone() {
    var watcher = ManualWatcher(.term)
    watcher.receive(snapshot(count: 0))
    #expect(watcher.draw() == Self.erase + "mail ")
  }

  @Test func palette256() {
    var watcher = ManualWatcher(.term, options: RenderOptions(colour: .palette256))
    watcher.receive(snapshot(count: 4))
    #expect(watcher.draw() == Self.erase + "mail \(esc)[38;5;231;48;5;167m 4 " + Self.reset)
  }

  @Test func noColourUsesBracketsAndPadding() {
    let options = RenderOptions(colour: .none)
    var watcher = Self.changed(options: options)
    #expect(watcher.draw() == Self.erase + "mail [3]")
    watcher.advance(to: 10.128)
    #expect(watcher.draw() == Self.erase + "mail [ 4 ]")
    watcher.advance(to: 11)
    #expect(watcher.draw() == Self.erase + "mail [4]")
    watcher.receive(snapshot(count: 0))
    watcher.advance(to: 11.1)
    #expect(watcher.draw() == Self.erase + "mail 4")
    watcher.receive(snapshot(count: 4, muted: true))
    watcher.advance(to: 13)
    #expect(watcher.draw() == Self.erase + "mail (4)")
    watcher.receive(snapshot(count: 4, online: false))
    #expect(watcher.draw() == Self.erase + "mail [4?]")
  }

  @Test func linePerFrameWhenNotRewriting() {
    var watcher = ManualWatcher(.term, options: RenderOptions(colour: .none, rewrite: false))
    watcher.receive(snapshot(count: 4))
    watcher.receive(snapshot("alerts", count: 1, dot: true))
    #expect(watcher.draw() == "mail [4] alerts •\n")
  }

  @Test func reducedMotionDrawsTheEndStateAtOnce() {
    var watcher = ManualWatcher(.term, animator: AnimatorOptions(noMotion: true), at: 10)
    watcher.receive(snapshot(count: 3))
    watcher.receive(snapshot(count: 4, pulseMs: 3000))
    #expect(watcher.draw() == Self.rest4)
    #expect(watcher.nextWake == nil)
  }

  @Test func templateInATerminal() throws {
    var watcher = ManualWatcher(.term, options: RenderOptions(template: try Template("{icon}{label}"), colour: .none))
    watcher.receive(snapshot(count: 4))
    #expect(watcher.draw() == Self.erase + "●[4]")
  }
}

/// Big mode: a five-row digit font whose changing columns slide.
@Suite struct BigFormatTests {
  static func rows(_ rows: [String], redraw: Bool) -> String {
    (redraw ? "\(esc)[4A" : "") + rows.map { "\r\(esc)[2K" + $0 }.joined(separator: "\n")
  }

  @Test func rollUpSlidesTheChangedColumns() {
    var watcher = ManualWatcher(.term, options: RenderOptions(colour: .none, big: true), at: 1)
    watcher.receive(snapshot(count: 9))
    watcher.receive(snapshot(count: 10))
    #expect(
      watcher.draw()
        == Self.rows(
          [
            "         ███",
            "         █ █",
            "         ███",
            "           █",
            "mail     ███",
          ], redraw: false))
    watcher.advance(to: 1.05)
    #expect(
      watcher.draw()
        == Self.rows(
          [
            "         ███",
            "           █",
            "         ███",
            "            ",
            "mail  █  ███",
          ], redraw: true))
    watcher.advance(to: 1.1)
    #expect(
      watcher.draw()
        == Self.rows(
          [
            "            ",
            "      █  ███",
            "     ██  █ █",
            "      █  █ █",
            "mail  █  █ █",
          ], redraw: true))
    watcher.advance(to: 2)
    #expect(
      watcher.draw()
        == Self.rows(
          [
            "      █  ███",
            "     ██  █ █",
            "      █  █ █",
            "      █  █ █",
            "mail ███ ███",
          ], redraw: true))
  }

  @Test func rollDownEntersFromAbove() {
    var watcher = ManualWatcher(.term, options: RenderOptions(colour: .none, big: true))
    watcher.receive(snapshot(count: 5))
    watcher.receive(snapshot(count: 4))
    watcher.advance(to: 0.05)
    #expect(
      watcher.draw()
        == Self.rows(
          [
            "       █",  // the bottom row of the entering 4
            "        ",
            "     ███",  // the top of the leaving 5, two rows down
            "     █  ",
            "mail ███",
          ], redraw: false))
  }

  @Test func colourAndSeveralChannels() {
    var watcher = ManualWatcher(.term, options: RenderOptions(separator: " | ", big: true))
    watcher.receive(snapshot(count: 1))
    watcher.receive(snapshot("ci", count: 0))
    let red = "\(esc)[38;2;229;57;53m"
    let reset = "\(esc)[0m"
    #expect(
      watcher.draw()
        == Self.rows(
          [
            "     " + red + " █ " + reset + " |    ",
            "     " + red + "██ " + reset + " |    ",
            "     " + red + " █ " + reset + " |    ",
            "     " + red + " █ " + reset + " |    ",
            "mail " + red + "███" + reset + " | ci ",
          ], redraw: false))
  }
}
