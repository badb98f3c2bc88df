import Foundation
import TestSupport
import Testing

/// `make pictures`'s generator, in its quick mode (a short recording, no bar tests, which run
/// with the rest of the tests anyway), so that it keeps working: the real Waybar and xterm
/// recordings become animated GIFs that move, the frames become the plot, a real tmux's
/// status line becomes its pictures, and badged-tray's frames its GIF.
@Suite struct PicturesTests {
  @Test func theGeneratorRecordsTheMotionPlotsTheCurvesAndTakesTmux() throws {
    try Binaries.check()
    let folder = try TemporaryFolder()
    let generate = try run(
      Repository.path("scripts/pictures/make-pictures"), ["--quick", folder.path],
      environment: ["BADGED_BIN_DIR": Binaries.folder.path])
    #expect(generate.status == 0, "\(generate.stderr)")
    #expect(generate.stdout.hasSuffix("Pictures written to \(folder.path)\n"))

    // The plot: three panels at 1200×340.
    #expect(try identify(folder.file("motion-curves.png")) == ["PNG 1200x340"])
    // The recordings: the whole canvas of each frame (doubled), and several different frames.
    for (name, size) in [("motion-waybar.gif", "480x60"), ("motion-terminal.gif", "660x340")] {
      let frames = try identify(folder.file(name), format: "%m %Wx%H")
      #expect(frames.count >= 4, "\(name): \(frames.count) frames")
      #expect(Set(frames) == ["GIF \(size)"], "\(name): \(Set(frames))")
    }
    // tmux's status line, whole (xterm's row and the border around it), on the theme's
    // status style, with the badge drawn in its ink (#e53935).
    for (theme, background) in [("dark", "srgb(32,32,32)"), ("light", "srgb(240,240,240)")] {
      let picture = folder.file("tmux-\(theme).png")
      #expect(try identify(picture) == ["PNG 736x40"], "\(theme)")
      let corner = try run("convert", [picture, "-format", "%[pixel:p{2,2}]", "info:"])
      #expect(corner.stdout == background, "\(theme): \(corner.stdout)")
      let colours = try run("convert", [picture, "-format", "%c", "histogram:info:"])
      #expect(colours.stdout.contains("#E53935"), "\(theme): no badge ink")
    }
    // badged-tray's frames of a count arriving: the 64 px icon doubled, several frames, the
    // last (whole) with the badge's red (#D32F2F, within the GIF palette's rounding) on it.
    let tray = try identify(folder.file("tray-bounce.gif"), format: "%m %Wx%H")
    #expect(tray.count >= 2 && Set(tray) == ["GIF 128x128"], "\(tray)")
    let last = try run(
      "convert", [folder.file("tray-bounce.gif"), "-coalesce", "-delete", "0--2", "-format", "%c", "histogram:info:"])
    let reds = last.stdout.matches(of: /: \((\d+),(\d+),(\d+)/).filter { match in
      abs(Int(match.1)! - 0xD3) <= 4 && abs(Int(match.2)! - 0x2F) <= 4 && abs(Int(match.3)! - 0x2F) <= 4
    }
    #expect(!reds.isEmpty, "no badge in the last frame: \(last.stdout)")
  }

  /// The README's picture of `badgectl top`: the real dashboard in xterm, the page and the
  /// statistics drawn in the badge's colour (xterm's 256-colour palette: 215,95,95).
  @Test func theDashboardsPictureShowsThePageAndTheStatistics() throws {
    try Binaries.check()
    let folder = try TemporaryFolder()
    let generate = try run(
      Repository.path("scripts/pictures/top-picture"), [folder.path],
      environment: ["BADGED_BIN_DIR": Binaries.folder.path])
    #expect(generate.status == 0, "\(generate.stderr)")
    let picture = folder.file("top.png")
    #expect(try identify(picture) == ["PNG 1020x619"])
    // The badge beside the big count, and the statistics' bar.
    for point in ["120,160", "600,160"] {
      let pixel = try run("convert", [picture, "-format", "%[pixel:p{\(point)}]", "info:"])
      #expect(pixel.stdout == "srgb(215,95,95)", "\(point): \(pixel.stdout)")
    }
  }

  /// One line per frame of `file`, as ImageMagick's identify describes it.
  private func identify(_ file: String, format: String = "%m %wx%h") throws -> [String] {
    let result = try run("identify", ["-format", format + "\n", file])
    guard result.status == 0 else { throw TestFailure("identify \(file): \(result.stderr)") }
    return result.stdout.split(separator: "\n").map(String.init)
  }
}
