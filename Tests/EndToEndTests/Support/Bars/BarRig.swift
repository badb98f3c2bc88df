import Foundation
import Testing

/// What every real-bar test starts with: a daemon with a short pulse window, and the
/// background processes of the bar, in the daemon's folder.
final class BarRig {
  let daemon: DaemonProcess
  let background: Background

  init(pulseMs: Int) throws {
    daemon = try DaemonProcess(config: "[daemon]\npulse_ms = \(pulseMs)\n")
    background = Background(folder: daemon.folder)
  }

  var socket: String { daemon.socket }

  /// `display`'s variables plus BADGED_SOCKET, which the bar hands down to the watcher.
  func environment(_ display: [String: String]) -> [String: String] {
    display.merging(["BADGED_SOCKET": daemon.socket]) { $1 }
  }

  /// Writes `text` to a file in the test's folder; returns its path.
  func file(_ name: String, _ text: String) throws -> String {
    try daemon.folder.write(name, text)
  }

  /// Waits until the bar `name` has drawn itself (its background fills most of the strip).
  func waitForBar(_ name: String, _ take: () throws -> Screenshot) throws -> Screenshot {
    let drawn = try pollScreenshot(take) { $0.count(BarColours.bar) > $0.width * $0.height / 2 }
    guard drawn.matched else { throw TestFailure("\(name) drew no bar: \(background.log(name))") }
    return drawn.shot
  }

  /// Stops the bar and everything under it; true when no watcher outlived it.
  func stopAndCheckWatchersEnded() -> Bool {
    background.stopAll()
    return waitUntil(timeout: 3) { watchersLeft(socket: daemon.socket).isEmpty }
  }
}
