import Foundation
import Testing

/// tmux 3.3 running contrib/bars/tmux (docs/BARS.md's status-right) with the built badgectl. A
/// `#()` job runs only while a client is attached, so a second tmux attaches one, and its
/// pane shows the first one's status line.
@Suite struct TmuxTests {
  @Test func theStatusLineShowsTheBadgeBlinkingDuringThePulse() throws {
    // tmux redraws its status line once a second at most, and a loaded machine can take much
    // longer: the pulse window is long enough for any number of redraws, and is then ended by
    // a request (muting ends a window; unmuting does not start one), not by the clock.
    let rig = try BarRig(pulseMs: 600_000)
    let inner = rig.daemon.folder.file("in")
    let outer = rig.daemon.folder.file("out")
    let config = try rig.file("tmux.conf", Contrib.config("tmux/tmux.conf"))
    func stopServers() {
      for server in [outer, inner] { _ = try? rig.background.run(["tmux", "-S", server, "kill-server"]) }
    }
    defer { stopServers() }
    let environment = rig.environment(["TERM": "xterm-256color"])
    try rig.background.run(
      ["tmux", "-S", inner, "-f", config, "new-session", "-d", "-s", "test", "-x", "100", "-y", "5"],
      environment: environment)
    try rig.background.run(
      [
        "tmux", "-S", outer, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "5",
        "tmux -S \(inner) attach -t test",
      ],
      environment: environment)
    var line = ""
    /// Whether the last line of the outer pane (the inner status line) satisfies `condition`.
    func statusLine(_ condition: @escaping (String) -> Bool) -> Bool {
      waitUntil(timeout: 20) {
        let pane = (try? rig.background.run(["tmux", "-S", outer, "capture-pane", "-p", "-e"])) ?? ""
        line = pane.split(separator: "\n").last.map(String.init) ?? ""
        return condition(line)
      }
    }
    let ink = "38;2;229;57;53m"  // #[fg=#e53935] as tmux draws it
    let blink = "\u{1B}[5m"

    // The job starts once the client is attached and the status line drawn.
    #expect(waitUntil(timeout: 10) { !watchersLeft(socket: rig.socket).isEmpty }, "no watcher started")
    try badgectl(["set", "mail", "33"], socket: rig.socket)
    #expect(statusLine { $0.contains(ink + "33") && $0.contains(blink) }, "no blinking badge: \(line.debugDescription)")
    try badgectl(["mute", "mail"], socket: rig.socket)
    try badgectl(["unmute", "mail"], socket: rig.socket)
    #expect(statusLine { $0.contains(ink + "33") && !$0.contains(blink) }, "still blinking: \(line.debugDescription)")
    try badgectl(["clear", "mail"], socket: rig.socket)
    #expect(statusLine { !$0.contains("33") }, "not cleared: \(line.debugDescription)")

    stopServers()
    #expect(waitUntil(timeout: 3) { watchersLeft(socket: rig.socket).isEmpty }, "a watcher outlived tmux")
  }
}
