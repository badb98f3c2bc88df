import CPangoCairo
import Foundation

/// A data directory of the test's own (applications/, icons/hicolor/, pixmaps/), removed when
/// the test is done.
final class IconTree {
  let root: String

  init() throws {
    var template = Array("\(NSTemporaryDirectory())/badged-icons.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
    root = String(cString: made)
  }

  deinit { try? FileManager.default.removeItem(atPath: root) }

  /// Writes `applications/<id>.desktop` with this `Icon=` line (and a translated one before it).
  func desktopFile(_ id: String, icon: String) throws {
    let text = """
      [Desktop Action New]
      Icon=wrong-group
      [Desktop Entry]
      Type=Application
      Name=Test
      Icon[de]=translated
      Icon = \(icon)
      Exec=true

      """
    try write("applications/\(id).desktop", Data(text.utf8))
  }

  /// Writes a `side`×`side` PNG filled with `red, green, blue` at `relative`; its path.
  @discardableResult
  func png(_ relative: String, side: Int = 32, red: Double = 0, green: Double = 0.667, blue: Double = 0) throws
    -> String
  {
    let path = "\(root)/\(relative)"
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(side), Int32(side))
    let context = cairo_create(surface)
    cairo_set_source_rgb(context, red, green, blue)
    cairo_paint(context)
    cairo_destroy(context)
    let status = cairo_surface_write_to_png(surface, path)
    cairo_surface_destroy(surface)
    guard status == CAIRO_STATUS_SUCCESS else { throw CocoaError(.fileWriteUnknown) }
    return path
  }

  /// Writes `bytes` at `relative` under the root, making its folders.
  func write(_ relative: String, _ bytes: Data) throws {
    let path = "\(root)/\(relative)"
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try bytes.write(to: URL(fileURLWithPath: path))
  }
}
