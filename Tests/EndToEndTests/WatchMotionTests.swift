import Foundation
import Testing

/// `badgectl watch --format frames` against the real daemon: the motion MOTION.md describes,
/// frame by frame, and silence once it is over.
@Suite struct WatchMotionTests {
  /// No pulse window, so that only the change itself moves the badge.
  static let stillConfig = "[channel mail]\npulse_ms = 0\n"

  /// Starts a frames watcher of `channel` at 120 frames a second and waits for its first
  /// frame (the snapshot, shown still).
  static func framesWatcher(_ daemon: DaemonProcess, _ arguments: [String] = ["mail"]) throws -> WatchProcess {
    let watch = try WatchProcess(arguments + ["--format", "frames", "--fps", "120"], socket: daemon.socket)
    let first = try Frame(watch.readLine())
    #expect(first.scale == 1 && first.offset == 0, "the snapshot is shown as it is")
    return watch
  }

  @Test func theReferenceCurvesMatchMotionMD() {
    for (t, scale) in [(0.05, 1.109683), (0.10, 1.266336), (0.15, 1.275239), (0.20, 1.090879), (0.30, 0.972267)] {
      #expect(abs(Reference.bounce(t) - scale) < 1e-6, "bounce at \(t)")
    }
    for (t, p) in [(0.2, 0.129162), (0.4, 0.5), (0.6, 0.870838), (1.0, 0.870838), (1.2, 0.5), (1.6, 0)] {
      #expect(abs(Reference.pulse(t) - p) < 1e-6, "pulse at \(t)")
    }
  }

  @Test func aCountChangeBouncesRollsUpSettlesAndStops() throws {
    let daemon = try DaemonProcess(config: WatchMotionTests.stillConfig)
    try badgectl(["set", "mail", "3"], socket: daemon.socket)
    let watch = try WatchMotionTests.framesWatcher(daemon)
    try badgectl(["incr", "mail"], socket: daemon.socket)
    // Collecting ends after 1.2 s without a frame: the frames stopped by themselves.
    let frames = try watch.lines(quiet: 1.2).map(Frame.init)
    try #require(frames.count > 20, "\(frames.count) frames")
    #expect(frames.count < 150, "at most 120 a second over about 0.7 s")

    // Every frame follows the reference bounce until it is close enough to snap to rest.
    for frame in frames where frame.t < 0.6 {
      #expect(abs(frame.scale - Reference.bounce(frame.t)) < 1e-4, "scale \(frame.scale) at t = \(frame.t)")
    }
    // The peak: 1.3143 at 0.128 s, seen on the frame grid (1/120 s); a frame the machine was
    // too busy to draw near the top still leaves one above 1.30 within 0.02 s of it.
    let peak = try #require(frames.max { $0.scale < $1.scale })
    #expect(peak.scale > 1.30 && peak.scale < 1.3144, "peak \(peak.scale)")
    #expect(abs(peak.t - 0.128) <= 0.0125 + 1.0 / 120, "peak at \(peak.t)")
    // The digits roll up: the new glyph enters from below (positive offset) while the old
    // one leaves.
    let rolling = frames.filter { $0.previous == "3" }
    #expect(!rolling.isEmpty && rolling.allSatisfy { $0.label == "4" && $0.offset >= -0.01 })
    #expect(rolling.first.map { $0.offset > 0.5 } == true)
    // It settles exactly at rest and the last frame comes when the bounce ends (0.70 s).
    let last = try #require(frames.last)
    #expect(last.scale == 1 && last.opacity == 1 && last.offset == 0 && last.label == "4")
    #expect(last.t > 0.6 && last.t < 1.5, "last frame at \(last.t)")
  }

  @Test func aDecreaseRollsDown() throws {
    let daemon = try DaemonProcess(config: WatchMotionTests.stillConfig)
    try badgectl(["set", "mail", "12"], socket: daemon.socket)
    let watch = try WatchMotionTests.framesWatcher(daemon)
    try badgectl(["decr", "mail", "2"], socket: daemon.socket)
    let frames = try watch.lines(quiet: 1.2).map(Frame.init)
    let rolling = frames.filter { $0.previous == "12" }
    try #require(!rolling.isEmpty)
    #expect(rolling.allSatisfy { $0.label == "10" && $0.offset <= 0.01 })
    #expect(rolling.first.map { $0.offset < -0.5 } == true, "the new glyph enters from above")
    #expect(frames.last?.scale == 1)
  }

  @Test func clearingFadesOutInsteadOfVanishing() throws {
    let daemon = try DaemonProcess(config: WatchMotionTests.stillConfig)
    try badgectl(["set", "mail", "3"], socket: daemon.socket)
    let watch = try WatchMotionTests.framesWatcher(daemon)
    try badgectl(["clear", "mail"], socket: daemon.socket)
    let frames = try watch.lines(quiet: 1.2).map(Frame.init)
    try #require(frames.count > 5)
    for frame in frames where frame.t < 0.4 {
      #expect(abs(frame.opacity - Reference.fadeOut(frame.t)) < 1e-4, "opacity \(frame.opacity) at \(frame.t)")
    }
    // The old count stays drawn while it fades and shrinks, then goes.
    let fading = frames.filter { $0.opacity > 0 }
    #expect(fading.count > 5 && fading.allSatisfy { $0.label == "3" })
    #expect(zip(fading, fading.dropFirst()).allSatisfy { $1.opacity <= $0.opacity && $1.scale <= $0.scale })
    let last = try #require(frames.last)
    #expect(last.opacity == 0 && last.scale == 0.5 && last.label == "")
  }

  @Test func aDotPulsesForItsWindowThenStaysStill() throws {
    let daemon = try DaemonProcess(config: "[channel alerts]\nstyle = dot\npulse_ms = 1200\n")
    // At 1 with no window running (a muted channel does not pulse, and unmuting starts no
    // window), so the window watched below is the increase's alone.
    for request in [["mute", "alerts"], ["set", "alerts", "1"], ["unmute", "alerts"]] {
      try badgectl(request, socket: daemon.socket)
    }
    let watch = try WatchMotionTests.framesWatcher(daemon, ["alerts"])
    try badgectl(["incr", "alerts"], socket: daemon.socket)
    // Frames are checked against the curve at their own times, so a busy machine that draws
    // fewer of them still passes; only a pause of 2 s ends the reading early.
    let frames = try watch.lines(quiet: 2).map(Frame.init)
    try #require(frames.count > 10)
    // The window's end is the daemon's: the event carries the milliseconds left when it was
    // sent, so on a busy machine the dot may come to rest a few milliseconds before 1.2 s of the
    // watcher's own clock. Every frame before the first frame at rest follows the curve.
    let restsAt = frames.firstIndex { $0.t > 0.5 && $0.dotScale == 1 && $0.dotOpacity == 1 } ?? frames.count
    let inWindow = frames[..<restsAt]
    #expect(restsAt < frames.count && frames[restsAt].t > 1.0, "the window runs until about 1.2 s")
    for frame in inWindow {
      let p = Reference.pulse(frame.t)
      #expect(abs(frame.dotScale - (1 + 0.5 * p)) < 1e-4, "dot scale \(frame.dotScale) at \(frame.t)")
      #expect(abs(frame.dotOpacity - (1 - 0.6 * p)) < 1e-4, "dot opacity \(frame.dotOpacity) at \(frame.t)")
      #expect(frame.label == "•" && frame.scale == 1, "a dot does not bounce")
    }
    #expect(inWindow.contains { $0.dotScale > 1.45 }, "the pulse nears its far end around 0.8 s")
    // The window ends at 1.2 s: the dot comes to rest there and nothing follows.
    let last = try #require(frames.last)
    #expect(last.dotScale == 1 && last.dotOpacity == 1)
    #expect(last.t > 1.15 && last.t < 2.5, "last frame at \(last.t)")
  }

  @Test func noMotionShowsEndStatesOnly() throws {
    let daemon = try DaemonProcess(config: WatchMotionTests.stillConfig)
    try badgectl(["set", "mail", "3"], socket: daemon.socket)
    for (arguments, environment) in [(["--no-motion"], [:]), ([], ["NO_MOTION": "1"])] {
      try badgectl(["set", "mail", "3"], socket: daemon.socket)
      let watch = try WatchProcess(
        ["mail", "--format", "frames"] + arguments, socket: daemon.socket, environment: environment)
      _ = try watch.readLine()
      try badgectl(["incr", "mail"], socket: daemon.socket)
      let frames = try watch.lines(quiet: 1).map(Frame.init)
      #expect(frames.count == 1, "\(arguments) \(environment)")
      #expect(frames.first.map { $0.label == "4" && $0.scale == 1 && $0.offset == 0 } == true)
    }
  }

  @Test func aWatchersOwnLimit() throws {
    let daemon = try DaemonProcess()
    try badgectl(["set", "mail", "12"], socket: daemon.socket)
    let plain = try WatchProcess(["mail", "--max", "9"], socket: daemon.socket)
    #expect(try plain.readLine() == "9+")
    let json = try jsonObject(
      WatchProcess(["mail", "--max", "9", "--format", "json"], socket: daemon.socket).readLine())
    #expect(json["label"] as? String == "9+" && json["count"] as? Int == 12)
    #expect(json["text"] as? String == "mail: 12 unread (shown as 9+)")
  }

  @Test func anIdleWatcherUsesNoCPU() throws {
    let daemon = try DaemonProcess(config: "[daemon]\npulse_ms = 400\n[channel alerts]\nstyle = dot\n")
    let watch = try WatchProcess(["mail", "alerts", "--format", "frames", "--fps", "120"], socket: daemon.socket)
    _ = try watch.readLine()
    // A bounce and a pulse, both over well within a second.
    try badgectl(["incr", "mail"], socket: daemon.socket)
    try badgectl(["incr", "alerts"], socket: daemon.socket)
    #expect(watch.lines(quiet: 1).count > 10)
    let before = try cpuTicks(watch.pid)
    let quiet = watch.lines(quiet: 3, limit: 3)
    let used = try cpuTicks(watch.pid) - before
    #expect(quiet.isEmpty, "nothing changed, nothing is written")
    #expect(used <= 1, "\(used) clock ticks in 3 s")
  }
}
