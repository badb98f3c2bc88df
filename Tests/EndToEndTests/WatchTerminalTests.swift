import Foundation
import Testing

/// `badgectl watch` on a real terminal: each variant runs in its own window of a private tmux
/// server, and the test reads the screen (`capture-pane -e` keeps the colours as SGR codes).
@Suite struct WatchTerminalTests {
  @Test func theTerminalFormatFollowsTheTerminalsAbilities() throws {
    let daemon = try DaemonProcess(config: "[daemon]\npulse_ms = 0\n")
    let background = Background(folder: daemon.folder)
    let server = daemon.folder.file("tmux")
    defer { _ = try? background.run(["tmux", "-S", server, "kill-server"]) }
    let watch = "\(Binaries.badgectl.path) watch mail"
    let variants: [(window: String, environment: [String], arguments: String)] = [
      ("truecolor", ["COLORTERM=truecolor"], ""),
      ("palette", ["COLORTERM="], ""),
      ("nocolor", ["NO_COLOR=1"], ""),
      ("dumb", ["TERM=dumb"], ""),
      ("big", ["COLORTERM=truecolor"], " --big"),
    ]
    // A session each, its variables set by `env` in the pane (tmux sets TERM itself).
    for variant in variants {
      let environment = (["BADGED_SOCKET=\(daemon.socket)"] + variant.environment).joined(separator: " ")
      try background.run(
        [
          "tmux", "-S", server, "-f", "/dev/null", "new-session", "-d", "-x", "60", "-y", "8", "-s", variant.window,
          "exec env \(environment) \(watch)\(variant.arguments)",
        ])
    }
    func screen(_ window: String) -> String {
      (try? background.run(["tmux", "-S", server, "capture-pane", "-p", "-e", "-t", window])) ?? ""
    }
    try badgectl(["set", "mail", "3"], socket: daemon.socket)
    usleep(300_000)
    try badgectl(["set", "mail", "4"], socket: daemon.socket)
    // The bounce and roll take 0.7 s; then every screen shows the resting badge.
    #expect(waitUntil(timeout: 10) { screen("nocolor").contains("mail [4]") }, "\(screen("nocolor"))")
    usleep(500_000)

    let truecolor = screen("truecolor")
    // (capture-pane drops the trailing blanks, the pill's right padding among them.)
    #expect(
      truecolor.contains("mail \u{1B}[38;2;255;255;255m\u{1B}[48;2;229;57;53m 4"), "\(truecolor.debugDescription)")
    let palette = screen("palette")
    #expect(palette.contains("38;5;") && !palette.contains("38;2;"), "\(palette.debugDescription)")
    // One line, rewritten in place, in every terminal that understands cursor codes.
    for window in ["truecolor", "palette", "nocolor"] {
      #expect(screen(window).split(separator: "\n").count == 1, "\(window): \(screen(window).debugDescription)")
    }
    let nocolor = screen("nocolor")
    #expect(!nocolor.contains("\u{1B}"), "\(nocolor.debugDescription)")
    // A dumb terminal gets no escape codes at all: a line per update, no rewriting.
    let dumb = screen("dumb")
    #expect(!dumb.contains("\u{1B}") && dumb.split(separator: "\n").count >= 2, "\(dumb.debugDescription)")
    #expect(dumb.split(separator: "\n").last?.hasSuffix("mail [4]") == true)
    // Big digits: the name on the bottom row of five, the 4 in block glyphs above it.
    let big = screen("big").split(separator: "\n").map { String($0) }
    #expect(
      big.count == 5 && big[4].contains("mail") && big[0].contains("█ █") && big[2].contains("███"),
      "\(big)")
  }
}
