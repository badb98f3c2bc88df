import BadgeBus
import Glibc

/// An app's icon as a PNG, for the tray's glyph: cairo reads PNGs only (no librsvg), so an app
/// whose icon exists only as SVG gets the bell.
public enum AppIconLookup {
  /// The icon theme searched: every theme inherits hicolor, where apps install their icons.
  static let theme = "hicolor"
  /// The largest desktop file read; a bigger one is not a desktop file.
  static let maxDesktopFileBytes = 1 << 20

  /// The PNG for desktop id `id`: its desktop file's `Icon=` (an absolute .png path, or a name
  /// looked up in `<dataDir>/icons/hicolor/<N>x<N>/apps/<name>.png` — the smallest N ≥ size,
  /// else the largest — then `<pixmapDir>/<name>.png`), or nil (an SVG-only icon, none found:
  /// the bell is drawn). `dataDirs` are the data directories most important first
  /// (`AppActivation.dataDirectories`), which the desktop file is found in too.
  public static func pngPath(
    desktopID id: String, size: Int, dataDirs: [String], pixmapDirs: [String] = ["/usr/share/pixmaps"]
  ) -> String? {
    let candidates = AppActivation.desktopFileCandidates(id: id, dataDirectories: dataDirs)
    guard let file = candidates.first(where: isReadable), let text = readText(file),
      let icon = iconKey(ofDesktopEntry: text)
    else { return nil }
    if icon.hasPrefix("/") {
      return icon.lowercased().hasSuffix(".png") && isReadable(icon) ? icon : nil
    }
    guard !icon.contains("/") else { return nil }
    let name = icon.hasSuffix(".png") ? String(icon.dropLast(4)) : icon
    return themedPath(name: name, size: size, dataDirs: dataDirs)
      ?? pixmapDirs.map { "\($0)/\(name).png" }.first(where: isReadable)
  }

  /// The value of `Icon=` in the `[Desktop Entry]` group (not a translated `Icon[xx]=`).
  static func iconKey(ofDesktopEntry text: String) -> String? {
    var inEntry = false
    for rawLine in text.split(whereSeparator: \.isNewline) {
      let line = rawLine.trimmingSpaces
      if line.hasPrefix("[") {
        inEntry = line == "[Desktop Entry]"
        continue
      }
      guard inEntry, let equals = line.firstIndex(of: "="), line[..<equals].trimmingSpaces == "Icon" else { continue }
      let value = line[line.index(after: equals)...].trimmingSpaces
      return value.isEmpty ? nil : String(value)
    }
    return nil
  }

  /// `<dataDir>/icons/hicolor/<N>x<N>/apps/<name>.png` for the smallest N ≥ `size`, else the
  /// largest N; at equal N the more important data directory wins.
  static func themedPath(name: String, size: Int, dataDirs: [String]) -> String? {
    var bySize: [Int: String] = [:]
    for dir in dataDirs {
      let themeDir = "\(dir)/icons/\(theme)"
      for entry in directoryEntries(themeDir) {
        guard let side = squareSide(entry), bySize[side] == nil else { continue }
        let path = "\(themeDir)/\(entry)/apps/\(name).png"
        if isReadable(path) { bySize[side] = path }
      }
    }
    let fitting = bySize.keys.filter { $0 >= size }.min() ?? bySize.keys.max()
    return fitting.flatMap { bySize[$0] }
  }

  /// N for a theme folder named `NxN`; nil for `scalable`, `NxN@2` and anything else.
  static func squareSide(_ name: String) -> Int? {
    let parts = name.split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0] == parts[1], let side = Int(parts[0]), side > 0 else { return nil }
    return side
  }

  private static func isReadable(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && access(path, R_OK) == 0
  }

  private static func directoryEntries(_ path: String) -> [String] {
    guard let dir = opendir(path) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// A small text file's contents; nil when it cannot be read or is too large.
  private static func readText(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16384)
    while true {
      let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if got < 0 && errno == EINTR { continue }
      guard got >= 0 else { return nil }
      if got == 0 { break }
      bytes += buffer[..<got]
      guard bytes.count <= maxDesktopFileBytes else { return nil }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension StringProtocol {
  /// Without leading and trailing spaces and tabs.
  fileprivate var trimmingSpaces: Substring {
    let view = Substring(self)
    let start = view.firstIndex { $0 != " " && $0 != "\t" } ?? view.endIndex
    let end = view.lastIndex { $0 != " " && $0 != "\t" }.map { view.index(after: $0) } ?? start
    return view[start..<end]
  }
}
