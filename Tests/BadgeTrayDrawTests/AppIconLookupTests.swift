import BadgeBus
import BadgeRender
import BadgeTrayDraw
import Foundation
import Testing

@Suite struct AppIconLookupTests {
  @Test func anAbsolutePNGPathIsTakenAsItIs() throws {
    let tree = try IconTree()
    let png = try tree.png("elsewhere/chat.png")
    try tree.desktopFile("org.example.Chat", icon: png)
    #expect(AppIconLookup.pngPath(desktopID: "org.example.Chat", size: 22, dataDirs: [tree.root]) == png)
  }

  @Test func anAbsolutePathThatIsNotAReadablePNGIsNone() throws {
    let tree = try IconTree()
    try tree.write("elsewhere/chat.svg", Data("<svg/>".utf8))
    try tree.desktopFile("svg", icon: "\(tree.root)/elsewhere/chat.svg")
    try tree.desktopFile("missing", icon: "\(tree.root)/elsewhere/missing.png")
    #expect(AppIconLookup.pngPath(desktopID: "svg", size: 22, dataDirs: [tree.root]) == nil)
    #expect(AppIconLookup.pngPath(desktopID: "missing", size: 22, dataDirs: [tree.root]) == nil)
  }

  @Test func aNameTakesTheSmallestThemeSizeAtLeastTheWantedElseTheLargest() throws {
    let tree = try IconTree()
    for side in [16, 32, 48] { try tree.png("icons/hicolor/\(side)x\(side)/apps/chat.png", side: side) }
    try tree.png("icons/hicolor/256x256@2/apps/chat.png")
    try tree.write("icons/hicolor/scalable/apps/chat.svg", Data("<svg/>".utf8))
    try tree.desktopFile("chat", icon: "chat")
    func found(_ size: Int) -> String? { AppIconLookup.pngPath(desktopID: "chat", size: size, dataDirs: [tree.root]) }
    #expect(found(16) == "\(tree.root)/icons/hicolor/16x16/apps/chat.png")
    #expect(found(22) == "\(tree.root)/icons/hicolor/32x32/apps/chat.png")
    #expect(found(48) == "\(tree.root)/icons/hicolor/48x48/apps/chat.png")
    #expect(found(128) == "\(tree.root)/icons/hicolor/48x48/apps/chat.png")
  }

  @Test func theDesktopFileAndTheIconComeFromTheFirstDataDirectoryThatHasThem() throws {
    let home = try IconTree()
    let system = try IconTree()
    try system.desktopFile("chat", icon: "chat.png")
    try system.png("icons/hicolor/32x32/apps/chat.png")
    try home.png("icons/hicolor/32x32/apps/chat.png")
    let dirs = [home.root, system.root]
    #expect(
      AppIconLookup.pngPath(desktopID: "chat", size: 24, dataDirs: dirs)
        == "\(home.root)/icons/hicolor/32x32/apps/chat.png")
  }

  @Test func pixmapsAreTheFallback() throws {
    let tree = try IconTree()
    let pixmap = try tree.png("pixmaps/chat.png")
    try tree.desktopFile("chat", icon: "chat")
    let pixmapDirs = ["\(tree.root)/pixmaps"]
    #expect(
      AppIconLookup.pngPath(desktopID: "chat", size: 24, dataDirs: [tree.root], pixmapDirs: pixmapDirs) == pixmap)
  }

  @Test func anSVGOnlyIconOrNoneAtAllIsNil() throws {
    let tree = try IconTree()
    try tree.write("icons/hicolor/scalable/apps/chat.svg", Data("<svg/>".utf8))
    try tree.desktopFile("chat", icon: "chat")
    try tree.write("applications/bare.desktop", Data("[Desktop Entry]\nName=Bare\n".utf8))
    let pixmapDirs = ["\(tree.root)/pixmaps"]
    #expect(AppIconLookup.pngPath(desktopID: "chat", size: 24, dataDirs: [tree.root], pixmapDirs: pixmapDirs) == nil)
    #expect(AppIconLookup.pngPath(desktopID: "bare", size: 24, dataDirs: [tree.root], pixmapDirs: pixmapDirs) == nil)
    #expect(AppIconLookup.pngPath(desktopID: "absent", size: 24, dataDirs: [tree.root], pixmapDirs: pixmapDirs) == nil)
  }

  @Test func theDataDirectoriesAreTheOnesDesktopFilesAreFoundIn() {
    let dirs = AppActivation.dataDirectories(dataHome: nil, dataDirs: "/opt/share:relative", home: "/home/u")
    #expect(dirs == ["/home/u/.local/share", "/opt/share"])
    #expect(
      AppActivation.desktopFileCandidates(id: "a.b", dataHome: nil, dataDirs: "/opt/share", home: "/home/u")
        == AppActivation.desktopFileCandidates(id: "a.b", dataDirectories: dirs))
  }

  @Test func anAppsPNGIsDrawnAsTheGlyph() throws {
    let tree = try IconTree()
    try tree.png("icons/hicolor/48x48/apps/chat.png", side: 48, red: 0, green: 0.667, blue: 0)
    try tree.desktopFile("chat", icon: "chat")
    let path = try #require(AppIconLookup.pngPath(desktopID: "chat", size: 64, dataDirs: [tree.root]))
    let painter = TrayIconPainter(colours: .standard)
    let icon = painter.draw(countFrame("5"), glyph: .image(path: path), size: 64)
    let green = RGB(0, 0xAA, 0)
    let box = try #require(Box(icon.opaque(green)))
    // The square [0, 0.16 S]–[0.84 S, S] on whole pixels (54 of 64), under the badge where they
    // meet.
    #expect(box == Box([(0, 10), (53, 63)]))
    #expect(icon.opaque(green).count > 54 * 54 - 400)
    #expect(icon.pixel(10, 40).colour == green)
    #expect(!icon.opaque(badgeRed).isEmpty)
    #expect(icon.opaque(TrayColours.standard.glyph).isEmpty)
    // The glyph kept between frames follows a change of glyph, back and forth.
    let bell = painter.draw(countFrame("5"), glyph: .bell, size: 64)
    #expect(bell == TrayIconPainter(colours: .standard).draw(countFrame("5"), glyph: .bell, size: 64))
    #expect(painter.draw(countFrame("5"), glyph: .image(path: path), size: 64) == icon)
  }
}
