import Foundation
import Testing

/// `badgectl top` in a pane of a private tmux server, against a real daemon (or, for the tests
/// of what it keeps from garbage, a `HostileServer`): keys and mouse reports go in with
/// `send-keys`, the screen comes out with `capture-pane`.
///
/// The pane runs a shell that starts top, and after it exits prints its exit status and
/// `stty -a` and stays open, so a test can check the terminal it left behind.
final class TopPane {
  let background: Background
  let server: String

  /// - Parameter name: names the tmux server, so that one test can run several panes.
  convenience init(
    daemon: DaemonProcess, name: String = "top", arguments: String = "", rows: Int = 32, columns: Int = 100
  ) throws {
    try self.init(
      folder: daemon.folder, socket: daemon.socket, name: name, arguments: arguments, rows: rows, columns: columns)
  }

  /// Top on the socket at `socket`, its tmux server in `folder`.
  init(
    folder: TemporaryFolder, socket: String, name: String = "top", arguments: String = "", rows: Int = 32,
    columns: Int = 100
  ) throws {
    background = Background(folder: folder)
    server = folder.file("tmux-\(name)")
    // xterm-256color: ncurses then asks for SGR (1006) mouse reports, as most terminals give.
    let top = "env TERM=xterm-256color BADGED_SOCKET=\(socket) \(Binaries.badgectl.path) top \(arguments)"
    try background.run(
      [
        "tmux", "-S", server, "-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)",
        "sh -c 'trap : INT; \(top); echo EXIT=$?; stty -a; exec sleep 600'",
      ])
  }

  deinit { _ = try? background.run(["tmux", "-S", server, "kill-server"]) }

  /// The pane's text, rows joined by LF.
  var screen: String { (try? background.run(["tmux", "-S", server, "capture-pane", "-p"])) ?? "" }

  /// Row `row` of the screen.
  func row(_ row: Int) -> String {
    let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
    return rows.indices.contains(row) ? String(rows[row]) : ""
  }

  /// Presses keys, by tmux's names (`Right`, `Enter`, `+`).
  func keys(_ keys: String...) throws {
    try background.run(["tmux", "-S", server, "send-keys"] + keys)
  }

  /// A left click at screen cell (`row`, `column`), counted from 0: an SGR (1006) press and
  /// release, as a terminal reports it.
  func click(row: Int, column: Int) throws {
    for end in ["M", "m"] { try sendBytes("\u{1B}[<0;\(column + 1);\(row + 1)\(end)") }
  }

  /// Sends `text` to the pane in one write, as a terminal sends a mouse report: pasted from a
  /// tmux buffer, raw. (`send-keys` writes a sequence byte by byte, and on a busy machine curses
  /// may take a pause inside it for the end of an Escape key.)
  private func sendBytes(_ text: String) throws {
    try background.run(["tmux", "-S", server, "set-buffer", "-b", "report", text])
    try background.run(["tmux", "-S", server, "paste-buffer", "-b", "report", "-d", "-r"])
  }

  /// A turn of the mouse wheel at (`row`, `column`): 64 is up, 65 down.
  func wheel(down: Bool, row: Int, column: Int) throws {
    try sendBytes("\u{1B}[<\(down ? 65 : 64);\(column + 1);\(row + 1)M")
  }

  /// A tmux format about the pane (`#{alternate_on}`).
  func display(_ format: String) throws -> String {
    try background.run(["tmux", "-S", server, "display-message", "-p", format])
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  func resize(rows: Int, columns: Int) throws {
    try background.run(["tmux", "-S", server, "resize-window", "-x", "\(columns)", "-y", "\(rows)"])
  }

  /// The pid of top itself: the child of the pane's shell, while it runs.
  func topPID() throws -> Int32? {
    let shell = try display("#{pane_pid}")
    let children = (try? background.run(["pgrep", "-P", shell])) ?? ""
    return children.split(separator: "\n").first.flatMap { Int32($0) }
  }

  /// Waits until `condition` holds for the screen; the screen when it does not, to report.
  @discardableResult
  func wait(_ what: String, timeout: Double = 10, _ condition: (String) -> Bool) -> Bool {
    let seen = waitUntil(timeout: timeout) { condition(screen) }
    if !seen { Issue.record("\(what); the screen:\n\(screen)") }
    return seen
  }
}
