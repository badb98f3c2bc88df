import Foundation
import Testing

/// Do-not-disturb, pulses on demand and seen versus unread, against the real daemon.
@Suite struct AttentionTests {
  @Test func dndSurvivesARestartAndEndsOnTimeWithAnEvent() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    _ = try client.request("INCR mail 2")
    let asked = Date()
    let since = wallMilliseconds()
    let on = try client.request("DND on 3s")
    let at = try dndStamp(on.first, since: since)
    #expect(on == ["STATE * dnd=1 left=3000 at=\(at)", "OK"])
    #expect(daemon.stop() == 0)
    let again = try DaemonProcess(folder: daemon.folder)
    let watcher = try again.client()
    let snapshot = try watcher.request("WATCH")
    #expect(snapshot.count == 3, "\(snapshot)")
    #expect(field(snapshot[0], "dnd") == "1", "the restart kept do-not-disturb: \(snapshot[0])")
    #expect(field(snapshot[0], "at") == "\(at)", "and when it changed")
    let left = Int(field(snapshot[0], "left") ?? "") ?? 0
    #expect(left > 0 && left <= 3000, "still timed, ending when it would have: \(snapshot[0])")
    #expect(field(snapshot[1], "dnd") == "hide")
    // The daemon pushes the end; the test waits for that line, not for a time.
    let ended = try #require(try watcher.readLine(timeout: 10))
    #expect(ended == "EVENT * dnd=0 left=0 at=\(at)", "ending by time is no change of its own")
    #expect(Date().timeIntervalSince(asked) >= 2.95, "never earlier than asked")
    let mail = try #require(try watcher.readLine(timeout: 10))
    #expect(mail.hasPrefix("EVENT mail count=2 ") && field(mail, "dnd") == "off", "\(mail)")
    #expect(try watcher.request("DND") == ["STATE * dnd=0 left=0 at=\(at)", "OK"])
  }

  @Test func dndSurvivesACrashThroughTheJournal() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let since = wallMilliseconds()
    let on = try client.request("DND on 2h")
    #expect(on == ["STATE * dnd=1 left=7200000 at=\(try dndStamp(on.first, since: since))", "OK"])
    daemon.crash()  // no compaction at the end: only the journal holds it
    let again = try DaemonProcess(folder: daemon.folder)
    let reply = try again.client().request("DND")
    #expect(field(reply[0], "dnd") == "1", "\(reply)")
    let left = Int(field(reply[0], "left") ?? "") ?? 0
    #expect(left > 7_000_000 && left <= 7_200_000, "\(reply)")
    #expect(field(reply[0], "at") == field(on[0], "at"), "\(reply)")
    let off = try again.client().request("DND off")
    let offAt = try dndStamp(off.first, since: since)
    again.crash()
    let third = try DaemonProcess(folder: daemon.folder)
    #expect(
      try third.client().request("DND") == ["STATE * dnd=0 left=0 at=\(offAt)", "OK"], "turning it off is saved too")
  }

  @Test func dndCountsOnWithoutPulsingAndSparesIgnoringChannels() throws {
    let daemon = try DaemonProcess(config: "[channel pager]\ndnd = ignore\n")
    let client = try daemon.client()
    _ = try client.request("INCR mail")
    let watcher = try daemon.client()
    _ = try watcher.request("WATCH")
    let since = wallMilliseconds()
    let on = try client.request("DND on")[0]
    let at = try dndStamp(on, since: since)
    #expect(on == "STATE * dnd=1 left=0 at=\(at)")
    #expect(try watcher.readLine() == "EVENT * dnd=1 left=0 at=\(at)")
    let silenced = try #require(try watcher.readLine())
    #expect(
      silenced.hasPrefix("EVENT mail count=1 ") && field(silenced, "dnd") == "hide" && field(silenced, "pulse") == "0")
    let incr = try client.request("INCR mail 4")[0]
    #expect(field(incr, "count") == "5" && field(incr, "pulse") == "0" && field(incr, "unseen") == "5")
    let pager = try client.request("INCR pager")[0]
    #expect(field(pager, "dnd") == "off" && field(pager, "pulse") != "0", "\(pager)")
    let toggled = try client.request("DND toggle")[0]
    let toggledAt = try dndStamp(toggled, since: at)
    #expect(toggled == "STATE * dnd=0 left=0 at=\(toggledAt)")
    #expect(try client.request("DND on 1h30m").first?.hasPrefix("ERR bad-number ") == true, "one unit only")
    #expect(try client.request("DND on 31d").first?.hasPrefix("ERR bad-number ") == true)
    #expect(
      try client.request("DND on 721h").first == "ERR out-of-range The duration '721h' is over the longest, 30 days")
    #expect(
      try client.request("DND") == ["STATE * dnd=0 left=0 at=\(toggledAt)", "OK"], "a refused request changed nothing")
  }

  @Test func pulsePulsesWithoutACountChange() throws {
    let daemon = try DaemonProcess(config: "[daemon]\npulse_ms = 0\n")
    let client = try daemon.client()
    let set = try client.request("SET mail 2")[0]
    #expect(field(set, "pulse") == "0")
    let watcher = try daemon.client()
    _ = try watcher.request("WATCH mail")
    let reply = try client.request("PULSE mail 1500")[0]
    #expect(field(reply, "count") == "2" && field(reply, "seq") == field(set, "seq"))
    #expect(Int(field(reply, "pulse") ?? "") == 1500)
    let started = try #require(try watcher.readLine())
    #expect(started.hasPrefix("EVENT mail count=2 ") && field(started, "seq") == field(set, "seq"))
    #expect(Int(field(started, "pulse") ?? "") ?? 0 > 0)
    let ended = try #require(try watcher.readLine(timeout: 10))
    #expect(withoutPulse(ended) == withoutPulse(started) && field(ended, "pulse") == "0")
    // The channel's own pulse_ms (0 here) makes no window; muted and DND refuse silently.
    #expect(field(try client.request("PULSE mail")[0], "pulse") == "0")
    _ = try client.request("MUTE mail")
    #expect(field(try client.request("PULSE mail 1000")[0], "pulse") == "0")
    _ = try client.request("UNMUTE mail")
    _ = try client.request("DND on")
    #expect(field(try client.request("PULSE mail 1000")[0], "pulse") == "0")
    let ctl = try badgectl(["pulse", "mail", "0"], socket: daemon.socket)
    #expect(ctl.status == 64 && ctl.stderr.contains("Invalid length '0'; expected a whole number from 1 to 3600000"))
    #expect(try client.request("PULSE mail 0").first?.hasPrefix("ERR bad-number ") == true)
  }

  @Test func seenThenIncrShowsExactlyTheNewArrivals() throws {
    let config = "[daemon]\npulse_ms = 0\n[channel mail]\nbadge = unseen\n"
    let daemon = try DaemonProcess(config: config)
    try badgectl(["incr", "mail", "4"], socket: daemon.socket)
    try badgectl(["incr", "chat", "2"], socket: daemon.socket)
    let seen = try badgectl(["seen", "mail"], socket: daemon.socket)
    #expect(seen.stdout == "mail 4 (◦) 0 new\n")
    let incr = try badgectl(["incr", "mail", "2", "--format", "json"], socket: daemon.socket)
    let object = try jsonObject(incr.stdout)
    #expect(object["count"] as? Int == 6 && object["unseen"] as? Int == 2 && object["label"] as? String == "2")
    #expect(object["badge"] as? String == "unseen")
    #expect(try badgectl(["seen", "--all"], socket: daemon.socket).stdout == "chat 2 0 new\nmail 6 (◦) 0 new\n")
    #expect(try badgectl(["decr", "mail"], socket: daemon.socket).stdout == "mail 5 (◦) 0 new\n")
    let bad = try badgectl(["seen", "mail", "--all"], socket: daemon.socket)
    #expect(bad.status == 64 && bad.stderr.contains("Give a channel or --all, not both"))
    // It persists: a restart keeps the seen items seen.
    #expect(daemon.stop() == 0)
    let again = try DaemonProcess(folder: daemon.folder, config: config)
    let get = try again.client().request("GET mail")[0]
    #expect(field(get, "unseen") == "0" && field(get, "label") == "◦")
  }

  @Test func badgectlDND() throws {
    let daemon = try DaemonProcess()
    #expect(try badgectl(["dnd", "status"], socket: daemon.socket).stdout == "dnd off\n")
    #expect(try badgectl(["dnd", "on", "2h"], socket: daemon.socket).stdout == "dnd on (2h left)\n")
    #expect(try badgectl(["dnd", "on"], socket: daemon.socket).stdout == "dnd on\n")
    #expect(try badgectl(["dnd", "toggle"], socket: daemon.socket).stdout == "dnd off\n")
    let until = try badgectl(["dnd", "on", "until", "0:00", "--format", "json"], socket: daemon.socket)
    let object = try jsonObject(until.stdout)
    let left = object["left"] as? Int ?? 0
    #expect(object["dnd"] as? Bool == true && left > 0 && left <= 24 * 3_600_000, "\(until.stdout)")
    #expect(try badgectl(["dnd", "off"], socket: daemon.socket).stdout == "dnd off\n")
    for (arguments, message) in [
      (["dnd", "maybe"], "Unknown argument 'maybe'; expected on, off, toggle or status"),
      (
        ["dnd", "on", "30"], "Invalid duration '30'; expected a whole number and a unit: 90s, 30m, 2h (or until HH:MM)"
      ),
      (["dnd", "on", "until", "24:00"], "Invalid time '24:00'; expected HH:MM from 00:00 to 23:59"),
      (["dnd", "on", "until"], "Expected 'until <HH:MM>', e.g. until 18:00"),
      (["dnd", "off", "now"], "Unexpected argument 'now'"),
      (["dnd", "on", "721h"], "The duration '721h' is over the longest, 30 days"),
      (["dnd"], "Missing expected argument 'on|off|toggle|status'"),
    ] {
      let result = try badgectl(arguments, socket: daemon.socket)
      #expect(result.status == 64 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
    #expect(
      try badgectl(["dnd", "status"], socket: daemon.socket).stdout == "dnd off\n", "usage errors changed nothing")
  }
}
