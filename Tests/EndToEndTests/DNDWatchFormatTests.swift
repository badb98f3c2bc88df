import Foundation
import Testing

/// Watchers in the bar formats show do-not-disturb as `dnd_badges` says.
@Suite struct DNDWatchFormatTests {
  /// A daemon with `mail` at 3 and `pager` (dnd = ignore) at 1, under `dnd_badges = mode`, and
  /// watchers of `mail` in the waybar, i3blocks and json formats, each past its first line.
  static func setUp(_ mode: String) throws -> (DaemonProcess, [String: WatchProcess], [String: String]) {
    let daemon = try DaemonProcess(
      config: "[daemon]\ndnd_badges = \(mode)\npulse_ms = 0\n[channel pager]\ndnd = ignore\n")
    try badgectl(["set", "mail", "3"], socket: daemon.socket)
    try badgectl(["set", "pager", "1"], socket: daemon.socket)
    var watchers: [String: WatchProcess] = [:]
    var first: [String: String] = [:]
    for format in ["waybar", "i3blocks", "json"] {
      let watcher = try WatchProcess(["mail", "pager", "--format", format, "--no-motion"], socket: daemon.socket)
      first[format] = try watcher.readLine(matching: { $0.contains("3") })
      watchers[format] = watcher
    }
    return (daemon, watchers, first)
  }

  /// The json watcher's next object for `channel`.
  static func next(_ channel: String, _ watcher: WatchProcess) throws -> [String: Any] {
    try jsonObject(watcher.readLine(matching: { $0.contains("\"channel\":\"\(channel)\"") }))
  }

  @Test func hideHidesSilencedBadgesInEveryFormat() throws {
    let (daemon, watchers, first) = try Self.setUp("hide")
    #expect(try badgectl(["dnd", "on"], socket: daemon.socket).status == 0)
    let waybar = try jsonObject(watchers["waybar"]!.readLine())
    #expect(waybar["text"] as? String == "pager 1", "mail is hidden, the pager is not: \(waybar)")
    #expect((waybar["class"] as? [String])?.contains("dnd") == true)
    #expect((waybar["tooltip"] as? String)?.contains("mail: 3 unread, do not disturb") == true)
    let i3blocks = try jsonObject(watchers["i3blocks"]!.readLine())
    #expect(i3blocks["full_text"] as? String == "pager 1")
    let mail = try Self.next("mail", watchers["json"]!)
    #expect(mail["dnd"] as? String == "hide" && mail["shown"] as? String == "" && mail["count"] as? Int == 3)
    #expect((mail["class"] as? [String])?.contains("dnd") == true)
    // Off again: every format is back where it was.
    #expect(try badgectl(["dnd", "off"], socket: daemon.socket).status == 0)
    #expect(try watchers["waybar"]!.readLine() == first["waybar"])
    #expect(try watchers["i3blocks"]!.readLine() == first["i3blocks"])
    #expect(try Self.next("mail", watchers["json"]!)["dnd"] as? String == "off")
  }

  @Test func dimDimsThemAndMarksThem() throws {
    let (daemon, watchers, first) = try Self.setUp("dim")
    #expect(try badgectl(["dnd", "on"], socket: daemon.socket).status == 0)
    let waybar = try jsonObject(watchers["waybar"]!.readLine())
    #expect(waybar["text"] as? String == "mail <span alpha=\"50%\">3</span> pager 1", "Pango's alpha dims it")
    #expect((waybar["class"] as? [String])?.contains("dnd") == true)
    let before = try jsonObject(first["i3blocks"]!)
    let i3blocks = try jsonObject(watchers["i3blocks"]!.readLine())
    #expect(i3blocks["full_text"] as? String == "mail 3 pager 1")
    #expect(i3blocks["color"] as? String != before["color"] as? String, "dimmed: \(i3blocks)")
    let mail = try Self.next("mail", watchers["json"]!)
    #expect(mail["dnd"] as? String == "dim" && mail["shown"] as? String == "3")
  }

  @Test func showShowsThemAsUsualButStillMarksThem() throws {
    let (daemon, watchers, first) = try Self.setUp("show")
    #expect(try badgectl(["dnd", "on"], socket: daemon.socket).status == 0)
    let waybar = try jsonObject(watchers["waybar"]!.readLine())
    #expect(waybar["text"] as? String == "mail 3 pager 1")
    #expect((waybar["class"] as? [String])?.contains("dnd") == true)
    let mail = try Self.next("mail", watchers["json"]!)
    #expect(mail["dnd"] as? String == "show" && mail["shown"] as? String == "3")
    // i3blocks draws exactly what it drew: its next line (after a change) has the old colour.
    try badgectl(["incr", "mail"], socket: daemon.socket)
    let i3blocks = try jsonObject(watchers["i3blocks"]!.readLine())
    #expect(i3blocks["full_text"] as? String == "mail 4 pager 1")
    #expect(i3blocks["color"] as? String == (try jsonObject(first["i3blocks"]!))["color"] as? String)
  }
}
