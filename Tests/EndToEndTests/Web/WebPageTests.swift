import BadgeMotion
import BadgeRender
import Foundation
import Testing

/// badged-web's page in headless Chromium against the real badged and badged-web (issue 31's
/// tests 1 and 4): the snapshot drawn, a count shown within 100 ms, a clear from the page as a
/// watermark, the bounce's frames against BadgeMotion, the count-up, no frame while idle.
@Suite(.serialized) struct WebPageTests {
  /// The page draws the snapshot it streams, weighs under 60 KB and says it is live.
  @Test func thePageDrawsTheSnapshotUnder60KB() throws {
    let stage = try WebStage()
    try stage.send(["INCR mail 3", "INCR chat 12", "INCR ci 120"])
    let browser = try BrowserScenario("drawn", stage: stage)
    let (lines, status) = try browser.rest()
    #expect(status == 0, "\(lines)")
    #expect(lines.contains("drawn chat 12 12"))
    #expect(lines.contains("drawn ci 120 99+"))
    #expect(lines.contains("drawn mail 3 3"))
    #expect(lines.contains("title (135) badged"))
    #expect(lines.contains("status live"))
    let weight = lines.first { $0.hasPrefix("weight ") }.flatMap { number($0, "bytes") } ?? 0
    #expect(weight > 10_000 && weight < 60_000, "page weight \(weight)")
    let firstDraw = lines.first { $0.hasPrefix("ready ") }.flatMap { number($0, "first_draw_ms") } ?? .infinity
    #expect(firstDraw < 2000, "first draw \(firstDraw) ms")
  }

  /// A channel's page drives badged: + clicked and held (it repeats, as `badgectl top`'s), the
  /// number wheel's pick (SET), Mark seen (up to the total drawn); then the segmented control
  /// slides to the stats, which count up to badged's count.
  @Test func theStepperTheWheelAndSeenChangeBadgedAndTheStatsShowIt() throws {
    let stage = try WebStage()
    try stage.send(["INCR mail 3"])
    let browser = try BrowserScenario("controls", stage: stage)
    let (lines, status) = try browser.rest()
    #expect(status == 0, "\(lines)")
    let stepped = try #require(lines.first { $0.hasPrefix("stepped ") }).split(separator: " ")
    let presses = Int(stepped[1]) ?? 0
    let added = Int(stepped[2]) ?? 0
    // One click, then a hold of at least four presses, each of the channel's step (1), each counted.
    #expect(presses >= 5 && added == presses, "\(lines)")
    // The wheel picked one more than the count it rested on.
    #expect(lines.contains("set \(3 + added + 1) 200"), "\(lines)")
    // The SET raised the running total with the count: seen up to it, nothing is unseen.
    #expect(lines.contains("seen \(3 + added + 1) 200"), "\(lines)")
    #expect(try stage.count("mail") == 3 + added + 1)
    let state = try stage.send(["GET mail"])
    #expect(state.compactMap { field($0, "unseen") }.first == "0", "\(state)")
    #expect(lines.contains("stats \(3 + added + 1) translateX(100%)"), "\(lines)")
  }

  /// A lost connection is shown and the page recovers by itself: with badged away (badged-web's
  /// `offline` event) and with badged-web away (the stream's error), the status reads stale;
  /// once each is back the page is live again and shows the change made meanwhile.
  @Test func thePageShowsStaleWhileAwayAndRecoversByItself() throws {
    let stage = try WebStage()
    try stage.send(["INCR mail 3"])
    let browser = try BrowserScenario("stale", stage: stage)
    #expect(try browser.until("stop-daemon") == ["status live"])
    var shown: [String] = []
    try stage.rig.restartDaemon {
      try browser.answer("go")
      shown = try browser.until("start-daemon")
    }
    #expect(shown == ["status stale body stale"], "\(shown)")
    try stage.send(["INCR mail 2"])
    try browser.answer("5")
    #expect(try browser.until("stop-web") == ["status live", "mail 5"])
    try stage.rig.restartWeb {
      try browser.answer("go")
      shown = try browser.until("start-web")
      try stage.send(["INCR mail"])
    }
    #expect(shown == ["status stale body stale"], "\(shown)")
    try browser.answer("6")
    let (lines, status) = try browser.rest()
    #expect(status == 0 && lines == ["status live", "mail 6"], "\(lines)")
  }

  /// Issue 31, test 3 in the browser: a page of another origin on the same host (so the user's
  /// SameSite cookie goes with its requests) can neither write (its form's POST is answered,
  /// and nothing changes: the Origin check), nor read the API, nor open the event stream.
  @Test func anotherSitesPageCanNeitherWriteNorRead() throws {
    let stage = try WebStage()
    try stage.send(["INCR mail 3"])
    let browser = try BrowserScenario("foreign", stage: stage)
    let (lines, status) = try browser.rest()
    #expect(status == 0, "\(lines)")
    // The form's POST was answered (its frame loaded): badged-web refused it.
    #expect(lines.contains("post answered"), "\(lines)")
    #expect(lines.contains("read blocked"), "\(lines)")
    #expect(lines.contains("events refused"), "\(lines)")
    #expect(try stage.count("mail") == 3)
  }

  /// Issue 31, test 1: `badgectl incr mail 3` shows within 100 ms; a clear from the page clears
  /// everywhere (a watcher and badged read 0); an INCR that badged counted after the page drew
  /// its count but before the click survives the clear (upto= the total the page drew); a write
  /// retried after a network error counts once.
  @Test func aClearFromThePageIsAWatermarkOfWhatItDrew() throws {
    let stage = try WebStage()
    let watcher = try WatchProcess(["--format", "plain", "mail"], socket: stage.daemon.socket)
    let browser = try BrowserScenario("clear", stage: stage)
    #expect(try browser.until("incr").contains("drawn mail -"))
    // From the moment badgectl's INCR has been counted (it returned) to the page's drawing.
    #expect(try badgectl(["incr", "mail", "3"], socket: stage.daemon.socket).status == 0)
    try browser.answer(BrowserScenario.nowMs)
    let shown = try browser.until("checked")
    let latency = shown.first { $0.hasPrefix("shown mail 3") }.flatMap { number($0, "latency") } ?? .infinity
    #expect(latency < 100, "\(shown)")
    #expect(shown.contains("cleared status=200 upto=3 tries=1"), "\(shown)")
    #expect(shown.contains("mail 0"), "\(shown)")
    #expect(try stage.count("mail") == 0)
    // The watcher (plain: the count, empty at 0) saw the 3, then the clear.
    #expect(try watcher.readLine(matching: { $0 == "3" }) == "3")
    #expect(try watcher.readLine(matching: { $0 != "3" }) == "")
    try browser.answer("go")

    try browser.until("incr3")
    try stage.send(["INCR mail 3"])
    try browser.answer("go")
    try browser.until("incr2")
    try stage.send(["INCR mail 2"])
    try browser.answer("go")
    let (lines, status) = try browser.rest()
    #expect(status == 0, "\(lines)")
    // The page drew total 6 (3 cleared, then 3): its clear says upto=6, and the 2 counted after stay.
    #expect(lines.contains("cleared status=200 upto=6 tries=1"), "\(lines)")
    #expect(lines.contains("mail 2"), "\(lines)")
    #expect(try watcher.readLine(matching: { $0 == "2" }) == "2")
    // A + whose answer was lost is sent again with the same id and counted once.
    #expect(lines.contains("incr status=200 n=1 tries=2 writes=1 same_id=yes"), "\(lines)")
    #expect(lines.last == "mail 3", "\(lines)")
    #expect(try stage.count("mail") == 3)
  }

  /// Issue 31, test 4: the badge's scale on each animation frame follows BadgeMotion's bounce
  /// within 1e-2; the page's curves are the Swift engine's (the table's samples); the count-up
  /// ends exactly at the sum; once settled no frame is requested; a dot's pulse stops with its
  /// window; under reduced motion a change requests no frame.
  @Test func theBounceFollowsTheEngineAndNothingAnimatesWhileIdle() throws {
    // calendar is a dot, and a pulse window lasts 0.8 s (one cycle there, one back).
    let stage = try WebStage(badgedConfig: "[daemon]\npulse_ms = 800\n\n[channel calendar]\nstyle = dot\n")
    try stage.send(["INCR mail 3", "INCR chat 12"])
    let browser = try BrowserScenario("motion", stage: stage)
    let curves = try browser.until("incr")
    #expect(curves.filter { $0.hasPrefix("curve ") }.count == 13, "\(curves)")
    for line in curves where line.hasPrefix("curve ") {
      #expect((number(line, "max_error") ?? 1) < 1e-6, "\(line)")
    }
    try stage.send(["INCR mail"])
    try browser.answer("go")
    try browser.until("dot")
    try stage.send(["INCR calendar"])
    try browser.answer("go")
    try browser.until("reduced")
    try stage.send(["INCR mail"])
    try browser.answer("go")
    let status = try browser.rest().status
    let lines = browser.lines
    #expect(status == 0, "\(lines)")
    let frames = lines.filter { $0.hasPrefix("frame ") }.map { $0.split(separator: " ").compactMap { Double($0) } }
    #expect(frames.count >= 20, "\(frames.count) frames")
    var scale = AnimatedValue(1)
    scale.animate(to: BadgeMotions.bouncePeakScale, with: BadgeMotions.bounceUp, at: 0)
    scale.animate(to: 1, with: BadgeMotions.bounceBack, at: BadgeMotions.bounceReturnDelay)
    for frame in frames where frame.count == 2 {
      #expect(abs(frame[1] - scale.value(at: frame[0])) < 1e-2, "at \(frame[0]) s: \(frame[1])")
    }
    #expect((frames.map { $0.last ?? 0 }.max() ?? 0) > 1.25, "the bounce's peak")
    // Totals 4 + 12: the stats' received figure counts up from near 0, never down, ends at 16.
    let countUp = lines.first { $0.hasPrefix("countup ") } ?? ""
    #expect(number(countUp, "end") == 16 && number(countUp, "expected") == 16, "\(countUp)")
    #expect((number(countUp, "start") ?? 16) <= 4 && countUp.hasSuffix(" rising=yes"), "\(countUp)")
    #expect(lines.filter { $0.hasPrefix("idle ") } == ["idle frames=0", "idle frames=0"], "\(lines)")
    // The dot's ring moved while it pulsed, then rests at scale 1 with no frame requested.
    let pulse = lines.first { $0.hasPrefix("pulse ") } ?? ""
    #expect((number(pulse, "ring_scales") ?? 0) >= 3 && pulse.hasSuffix(" idle_frames=0 end=scale(1)"), "\(pulse)")
    // Reduced motion: the count jumps, no frame.
    #expect(lines.last == "reduced frames=0 scale=scale(1)", "\(lines)")
  }
}
