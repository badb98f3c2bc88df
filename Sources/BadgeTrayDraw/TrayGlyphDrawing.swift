import CPangoCairo

/// The icon's base: the bell, drawn with paths, or an app's PNG scaled into the glyph's square.
enum TrayGlyphDrawing {
  /// Fills the bell into the glyph's square of a `size` icon: a dome flaring into a rim, a knob
  /// on top and a clapper below, in unit coordinates of the square.
  static func bell(_ context: OpaquePointer, size: Int, colour: RGBComponents) {
    let square = TrayIconGeometry.glyphSquare(size: size)
    cairo_save(context)
    cairo_translate(context, 0, square.top)
    cairo_scale(context, square.side, square.side)
    // The dome and its flare.
    cairo_move_to(context, 0.5, 0.14)
    cairo_curve_to(context, 0.7, 0.14, 0.77, 0.3, 0.77, 0.48)
    cairo_line_to(context, 0.77, 0.6)
    cairo_curve_to(context, 0.77, 0.67, 0.84, 0.71, 0.88, 0.74)
    cairo_line_to(context, 0.12, 0.74)
    cairo_curve_to(context, 0.16, 0.71, 0.23, 0.67, 0.23, 0.6)
    cairo_line_to(context, 0.23, 0.48)
    cairo_curve_to(context, 0.23, 0.3, 0.3, 0.14, 0.5, 0.14)
    cairo_close_path(context)
    // The rim.
    cairo_rectangle(context, 0.1, 0.73, 0.8, 0.07)
    // The knob and the clapper.
    cairo_new_sub_path(context)
    cairo_arc(context, 0.5, 0.12, 0.06, 0, 2 * Double.pi)
    cairo_new_sub_path(context)
    cairo_arc(context, 0.5, 0.86, 0.08, 0, 2 * Double.pi)
    cairo_restore(context)
    cairo_set_fill_rule(context, CAIRO_FILL_RULE_WINDING)
    cairo_set_source_rgba(context, colour.red, colour.green, colour.blue, 1)
    cairo_fill(context)
  }

  /// Fills the glyph's square with `image` (a cairo surface read from a PNG) scaled into it; its
  /// edge pixels are extended rather than faded into the transparency around it.
  static func image(_ context: OpaquePointer, size: Int, image: OpaquePointer) {
    let width = Double(cairo_image_surface_get_width(image))
    let height = Double(cairo_image_surface_get_height(image))
    guard width > 0, height > 0 else { return }
    let square = TrayIconGeometry.glyphSquare(size: size)
    cairo_save(context)
    cairo_translate(context, 0, square.top)
    cairo_scale(context, square.side / width, square.side / height)
    cairo_set_source_surface(context, image, 0, 0)
    cairo_pattern_set_filter(cairo_get_source(context), CAIRO_FILTER_GOOD)
    cairo_pattern_set_extend(cairo_get_source(context), CAIRO_EXTEND_PAD)
    cairo_rectangle(context, 0, 0, width, height)
    cairo_fill(context)
    cairo_restore(context)
  }
}
