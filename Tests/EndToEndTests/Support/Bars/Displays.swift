import Foundation
import TestSupport

/// A headless sway 1.7 for the Wayland bars (Waybar, yambar), as PLATFORM.md describes it:
/// sway refuses to run as root, so it runs as `nobody` in a runtime folder of its own; the
/// bars (as root) reach it through that folder.
struct HeadlessSway {
  let runtime: String
  let display: String
  let background: Background

  init(_ background: Background) throws {
    self.background = background
    runtime = background.folder.file("run")
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    try FileManager.default.setAttributes(
      [.ownerAccountName: "nobody", .groupOwnerAccountName: "nogroup", .posixPermissions: 0o700], ofItemAtPath: runtime)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: background.folder.path)
    let config = try background.folder.write("sway.conf", "xwayland disable\noutput HEADLESS-1 resolution 1280x720\n")
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: config)
    try background.start(
      "sway",
      [
        "env", "WLR_BACKENDS=headless", "WLR_LIBINPUT_NO_DEVICES=1", "XDG_RUNTIME_DIR=\(runtime)",
        "setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "sway", "-c", config,
      ])
    let runtime = runtime
    var display: String?
    _ = waitUntil(timeout: 15) {
      display = (try? FileManager.default.contentsOfDirectory(atPath: runtime))?
        .first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
      return display != nil
    }
    guard let display else { throw TestFailure("sway did not start: \(background.log("sway"))") }
    self.display = display
  }

  /// The variables a Wayland client needs to reach this sway.
  var environment: [String: String] { ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": display] }

  /// The top `height` rows of the output (grim).
  func screenshot(height: Int = 30) throws -> Screenshot {
    let file = background.folder.file("shot.ppm")
    try background.run(["grim", "-t", "ppm", "-g", "0,0 1280x\(height)", file], environment: environment)
    return try Screenshot(ppm: Data(contentsOf: URL(fileURLWithPath: file)))
  }
}

/// An Xvfb server for the X11 bars (polybar, i3bar), on a free display it picks itself
/// (`-displayfd`). `-noreset`: by default an X server resets when its last client leaves, and a
/// bar connecting during the reset loses its connection.
struct XServer {
  let display: String
  let background: Background

  init(_ background: Background) throws {
    self.background = background
    let file = background.folder.file("display")
    try background.start(
      "xvfb", ["sh", "-c", "exec Xvfb -displayfd 3 -screen 0 1280x200x24 -nolisten tcp -noreset 3>\"$0\"", file])
    var number: String?
    _ = waitUntil(timeout: 15) {
      let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
      number = text.hasSuffix("\n") ? text.trimmingCharacters(in: .whitespacesAndNewlines) : nil
      return number != nil
    }
    guard let number else { throw TestFailure("Xvfb did not start: \(background.log("xvfb"))") }
    display = ":" + number
  }

  var environment: [String: String] { ["DISPLAY": display] }

  /// The top `height` rows of the screen (ImageMagick's import).
  func screenshot(height: Int = 30) throws -> Screenshot {
    let file = background.folder.file("shot.ppm")
    try background.run(
      ["import", "-display", display, "-window", "root", "-crop", "1280x\(height)+0+0", "-depth", "8", "ppm:" + file])
    return try Screenshot(ppm: Data(contentsOf: URL(fileURLWithPath: file)))
  }

  /// A left click at (`x`, `y`), pressed and released as a hand would (xdotool): a press and
  /// release in the same instant is not always taken for a click.
  func click(x: Int, y: Int) throws {
    try background.run(["xdotool", "mousemove", "--sync", String(x), String(y)], environment: environment)
    usleep(200_000)
    try background.run(["xdotool", "mousedown", "1"], environment: environment)
    usleep(100_000)
    try background.run(["xdotool", "mouseup", "1"], environment: environment)
  }
}

/// The bar configurations in contrib/bars, the same files docs/BARS.md shows.
enum Contrib {
  static func text(_ path: String) throws -> String {
    try String(contentsOfFile: Repository.path("contrib/bars/" + path), encoding: .utf8)
  }

  /// `path`'s text with every `badgectl` replaced by the built binary's absolute path.
  static func config(_ path: String) throws -> String {
    try text(path).replacingOccurrences(of: "badgectl", with: Binaries.badgectl.path)
  }
}

/// Saves the last screenshot taken, the whole bar at its real size, as
/// `NAME-THEME.png` in the folder BADGED_SCREENSHOTS names (how `make pictures` takes the
/// pictures of the bars in docs/BARS.md and the README); does nothing otherwise.
func keepScreenshot(_ background: Background, _ name: String) {
  guard let folder = ProcessInfo.processInfo.environment["BADGED_SCREENSHOTS"] else { return }
  let source = background.folder.file("shot.ppm")
  _ = try? background.run(["convert", source, "-strip", "\(folder)/\(name)-\(BarTheme.current.name).png"])
}
