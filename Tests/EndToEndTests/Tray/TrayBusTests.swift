import Foundation
import Testing

/// badged-tray on a private session bus with the recording watcher as its host: registration,
/// every frame of a bounce measured against MOTION.md's curve, silence while idle, the menu,
/// and the watcher, badged and the bus going away.
@Suite(.serialized) struct TrayBusTests {
  /// The sizes IconPixmap carries: the 1× and the 2× set (design decision 3).
  static let sizes = [16, 22, 24, 32, 44, 48, 64, 96, 128]

  /// Waits for `item`'s frame at rest with a badge once a change's motion has settled (a
  /// bounce settles within 0.7 s), and reads every report the item sent before it: that frame.
  static func restingFrame(_ watcher: TrayWatcher, _ item: String) throws -> TrayEvent {
    let frame = try watcher.frame(of: item) { $0.scale == 1 && $0.capsule != nil && ($0.elapsed ?? 0) >= 0.6 }
    try watcher.sync(item)
    return frame
  }

  @Test func itRegistersAndACountShowsTheCapsuleAtRestingHeight() throws {
    let rig = try TrayRig()
    let (watcher, tray) = try rig.registeredTray()

    try rig.ctl("incr", "mail", "3")
    let frame = try TrayBusTests.restingFrame(watcher, tray.item(1))
    let capsule = try #require(frame.capsule)
    #expect(abs(capsule.h - 27) <= 1, "round(0.42 × 64) = 27: \(frame)")
    // At the top-right: against the icon's right edge, its centre in the upper half.
    #expect(capsule.x + capsule.w >= 62 && 2 * capsule.y + capsule.h < 64, "at the top-right corner: \(frame)")
    #expect(frame.sizes == TrayBusTests.sizes)
    let properties = try watcher.properties(of: tray.item(1))
    #expect(properties.status == "Active" && properties.title == "badged: mail", "\(properties)")
  }

  @Test func aNewCountBouncesAlongTheCurveFrameByFrameThenStopsAtRest() throws {
    let rig = try TrayRig()
    let (watcher, tray) = try rig.registeredTray()
    try rig.ctl("incr", "mail", "3")
    let resting = try #require(TrayBusTests.restingFrame(watcher, tray.item(1)).capsule)

    let start = watcher.events.count
    try rig.ctl("incr", "mail")
    // Every frame until the one at rest, and what the item sent before a round trip after it.
    let rest = try TrayBusTests.restingFrame(watcher, tray.item(1))
    let frames = watcher.events[start...].filter { $0.event == "icon" && $0.item == tray.item(1) }
    try #require(!frames.isEmpty, "\(tray.log)")
    #expect(
      frames.drop { ($0.n ?? 0) < (rest.n ?? 0) }.allSatisfy { $0.scale == 1 && $0.capsule == rest.capsule },
      "moved after rest")
    // A reader that reads each frame as hosts do (IconPixmap after each NewIcon) may lag and
    // read a later frame than the signal's: every frame read is checked, the count is the
    // signals'.
    for frame in frames {
      let (elapsed, scale) = (frame.elapsed ?? -1, frame.scale ?? -1)
      // The closed form until the motion snaps to rest (as in WatchMotionTests).
      if elapsed < 0.6 {
        #expect(abs(scale - Reference.bounce(elapsed)) < 1e-6, "scale \(scale) at \(elapsed)")
      }
      #expect(CapsuleGeometry.fits(frame.capsule, scale: scale, resting: resting), "\(frame)")
    }
    // At most 30 frames a second: the signals sent over the motion's length.
    let last = try #require(frames.last)
    let signals = (last.n ?? 0) - (frames[0].n ?? 0) + 1
    #expect(
      signals > 10 && Double(signals) <= (last.elapsed ?? 0) * 30 + 2, "\(signals) NewIcon over \(last.elapsed ?? 0) s")
    // The last frame is the resting state, sent when the bounce has settled (0.70 s).
    #expect(last.scale == 1 && last.capsule == resting, "\(last)")
    #expect((last.elapsed ?? 0) > 0.6 && (last.elapsed ?? 0) < 1.5, "\(last)")
  }

  @Test func anIdleItemSendsNoFrameWhileAnotherMoves() throws {
    let rig = try TrayRig()
    let (watcher, tray) = try rig.registeredTray("items = mail ci\n")
    try watcher.registration(of: tray.item(2))
    try rig.ctl("incr", "mail", "3")
    _ = try TrayBusTests.restingFrame(watcher, tray.item(1))

    let before = watcher.events.count
    let drawn = tray.framesDrawn("mail")
    try rig.ctl("incr", "ci", "2")
    let ci = try TrayBusTests.restingFrame(watcher, tray.item(2))
    #expect(ci.capsule != nil)
    try watcher.sync(tray.item(1))  // every signal mail's item sent until now has been read
    // mail's item drew nothing; a NewIcon it sent meanwhile can only be the one it sends again
    // a second after its own bounce (TrayItem.reannounceDelay), with the resting frame.
    #expect(tray.framesDrawn("mail") == drawn, "mail's item drew frames while idle: \(tray.log)")
    let mailFrames = watcher.events[before...].filter { $0.event == "icon" && $0.item == tray.item(1) }
    #expect(mailFrames.count <= 1 && mailFrames.allSatisfy { $0.scale == 1 }, "\(mailFrames)")
  }

  @Test func withReducedMotionEachChangeIsOneFrameAtRest() throws {
    let rig = try TrayRig()
    let (watcher, tray) = try rig.registeredTray("items = mail\nreduce_motion = yes\n")
    try rig.ctl("incr", "mail", "3")
    let first = try watcher.frame(of: tray.item(1)) { $0.capsule != nil }
    #expect(first.scale == 1 && abs((first.capsule?.h ?? 0) - 27) <= 1, "\(first)")

    // One frame drawn for the second change, at rest: without motion a change's one frame is
    // drawn in the turn that takes it in, before its NewIcon, which arrives before the answer
    // to a round trip made once the frame was seen.
    let drawn = tray.framesDrawn("mail")
    try rig.ctl("incr", "mail")
    let second = try watcher.frame(of: tray.item(1)) { ($0.n ?? 0) > (first.n ?? 0) }
    #expect(second.scale == 1, "\(second)")
    try watcher.sync(tray.item(1))
    #expect(tray.framesDrawn("mail") == drawn + 1, "\(tray.log)")
    let all = watcher.events.filter { $0.event == "icon" && $0.item == tray.item(1) }
    #expect(all.allSatisfy { $0.scale == 1 }, "a frame in motion: \(all)")
  }

  @Test func theMenuListsTheChannelsAndAClickClearsUpToWhatItShowed() throws {
    let rig = try TrayRig()
    let (watcher, tray) = try rig.registeredTray("items = *\n")
    let item = tray.item(1)
    try rig.ctl("set", "mail", "3")
    try rig.ctl("set", "ci", "2")
    var layout = try watcher.layout(of: item)
    _ = try waitUntil {
      layout = try watcher.layout(of: item)
      return layout.entries?.count == 5
    }
    let entries = try #require(layout.entries)
    try #require(entries.count == 5, "\(layout)")
    #expect(entries[0].words == ["ci", "2"] && entries[1].words == ["mail", "3"], "\(layout)")
    #expect(entries[2].type == "separator" && entries[3].label == "Clear all", "\(layout)")
    #expect(entries[4].label == "Do not disturb" && entries[4].toggleState == 0, "\(layout)")

    // An INCR after the menu showed 3 survives the click on "mail 3".
    try rig.ctl("incr", "mail", "2")
    try watcher.click(item, entry: entries[1].id)
    #expect(waitUntil { (try? rig.ctl("get", "mail")) != "mail 5\n" })
    #expect(try rig.ctl("get", "mail") == "mail 2\n")
    #expect(try rig.ctl("get", "ci") == "ci 2\n")

    // "Clear all" clears each channel up to what its revision showed.
    _ = try waitUntil {
      layout = try watcher.layout(of: item)
      return layout.entries?[1].words == ["mail", "2"]
    }
    let shown = try #require(layout.entries)
    try rig.ctl("incr", "ci")
    try watcher.click(item, entry: shown[3].id)
    #expect(waitUntil { (try? rig.ctl("get", "mail")) == "mail 0\n" })
    #expect(try rig.ctl("get", "ci") == "ci 1\n")
  }

  @Test func itRegistersAgainWhenTheWatcherComesBack() throws {
    let rig = try TrayRig()
    var watcher: TrayWatcher? = try rig.watcher()
    let tray = try rig.tray()
    try watcher?.registration(of: tray.item(1))
    watcher = nil  // the host goes away
    let again = try rig.watcher()
    try again.registration(of: tray.item(1))
    #expect(tray.isRunning)
  }

  @Test func badgedRestartedTheIconTurnsGreyThenShowsTheCountAgain() throws {
    let rig = try TrayRig()
    let (watcher, tray) = try rig.registeredTray()
    try rig.ctl("incr", "mail", "3")
    let counted = try TrayBusTests.restingFrame(watcher, tray.item(1))

    rig.daemon.stop()
    try watcher.frame(of: tray.item(1)) { $0.capsule == nil }  // grey: no pixel of the badge colour
    try watcher.sync(tray.item(1))
    let away = try watcher.properties(of: tray.item(1))
    #expect(away.tooltip?.last?.contains("badged is not running") == true, "\(away)")

    let daemon = try DaemonProcess(folder: rig.daemon.folder, socket: rig.socket, config: TrayRig.stillChannels)
    let back = try watcher.frame(of: tray.item(1), timeout: 15) { $0.capsule != nil && $0.scale == 1 }
    #expect(back.capsule == counted.capsule, "\(back)")
    #expect(tray.isRunning)
    daemon.stop()
  }

  @Test func theSessionBusGoneItExitsWithStatus1() throws {
    let rig = try TrayRig()
    let (watcher, tray) = try rig.registeredTray()
    rig.bus.stop()
    #expect(tray.exitStatus(within: 5) == 1, "\(tray.log)")
  }
}
