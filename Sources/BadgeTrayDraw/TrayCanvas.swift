import CPangoCairo

/// One icon size's cairo image surface, its context and a pango layout on it, kept between
/// frames: creating them is most of a small icon's cost.
final class TrayCanvas {
  let size: Int
  let surface: OpaquePointer
  let context: OpaquePointer
  let layout: OpaquePointer
  /// The glyph drawn alone, and which glyph it is: drawn once, copied under every frame.
  private var glyphLayer: OpaquePointer?
  private var glyphLayerKey: TrayGlyph?

  /// A transparent `size`×`size` ARGB32 canvas whose text metrics are not hinted, so that a
  /// label's width grows in proportion to its scale and the bounce does not wobble by a pixel.
  init(size: Int, fontOptions: OpaquePointer) {
    self.size = size
    surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size), Int32(size))
    context = cairo_create(surface)
    layout = pango_cairo_create_layout(context)
    pango_cairo_context_set_font_options(pango_layout_get_context(layout), fontOptions)
    pango_layout_context_changed(layout)
  }

  deinit {
    if let glyphLayer { cairo_surface_destroy(glyphLayer) }
    badged_g_object_unref(UnsafeMutableRawPointer(layout))
    cairo_destroy(context)
    cairo_surface_destroy(surface)
  }

  /// Replaces every pixel with the glyph's layer, drawing the layer with `draw` first when the
  /// glyph is not the one it holds: a frame then costs a copy where it cost the glyph's curves.
  func start(with glyph: TrayGlyph, draw: (_ context: OpaquePointer) -> Void) {
    if glyphLayerKey != glyph || glyphLayer == nil {
      if let glyphLayer { cairo_surface_destroy(glyphLayer) }
      let layer = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size), Int32(size))
      let layerContext = cairo_create(layer)
      if let layerContext { draw(layerContext) }
      cairo_destroy(layerContext)
      cairo_surface_flush(layer)
      glyphLayer = layer
      glyphLayerKey = glyph
    }
    cairo_save(context)
    cairo_set_operator(context, CAIRO_OPERATOR_SOURCE)
    cairo_set_source_surface(context, glyphLayer, 0, 0)
    cairo_paint(context)
    cairo_restore(context)
  }

  /// The pixels as a StatusNotifierItem wants them: cairo's premultiplied native-endian words
  /// become straight-alpha A, R, G, B bytes.
  func pixmap() -> IconPixmap {
    cairo_surface_flush(surface)
    let stride = Int(cairo_image_surface_get_stride(surface))
    let side = size
    let argb = [UInt8](unsafeUninitializedCapacity: side * side * 4) { bytes, count in
      guard let data = cairo_image_surface_get_data(surface) else {
        bytes.initialize(repeating: 0)
        count = side * side * 4
        return
      }
      for row in 0..<side {
        let words = UnsafeRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
        for column in 0..<side {
          let word = words[column]
          let alpha = word >> 24
          var red = word >> 16 & 0xFF
          var green = word >> 8 & 0xFF
          var blue = word & 0xFF
          if alpha != 0 && alpha != 255 {
            red = (red * 255 + alpha / 2) / alpha
            green = (green * 255 + alpha / 2) / alpha
            blue = (blue * 255 + alpha / 2) / alpha
          }
          let at = (row * side + column) * 4
          bytes[at] = UInt8(alpha)
          bytes[at + 1] = UInt8(red)
          bytes[at + 2] = UInt8(green)
          bytes[at + 3] = UInt8(blue)
        }
      }
      count = side * side * 4
    }
    return IconPixmap(width: Int32(size), height: Int32(size), argb: argb)
  }
}
