import BadgeRender
import CPangoCairo

/// A colour as cairo takes it: components from 0 to 1.
struct RGBComponents {
  var red: Double
  var green: Double
  var blue: Double

  init(_ colour: RGB) {
    red = Double(colour.red) / 255
    green = Double(colour.green) / 255
    blue = Double(colour.blue) / 255
  }
}

/// Draws tray icons: the glyph with a `BadgeFrame`'s badge on its top-right corner, with cairo
/// and pango. It keeps a canvas (surface, context, pango layout, the glyph drawn alone) per size
/// and the PNGs it has read between frames, so one is made per program and used from one thread.
public final class TrayIconPainter {
  /// The sizes served: the 1× set hosts ask for and the 2× set of HiDPI panels.
  public static let sizes = [16, 22, 24, 32, 44, 48, 64, 96, 128]
  /// The label's font: DejaVu Sans Bold where it is installed, else fontconfig's bold sans.
  static let font = "DejaVu Sans,Sans Bold"

  public let colours: TrayColours
  private var canvases: [Int: TrayCanvas] = [:]
  /// PNGs read so far by path, `nil` for one that could not be read (the bell is drawn).
  private var images: [String: OpaquePointer?] = [:]
  private let fontOptions: OpaquePointer
  private let fontDescription: OpaquePointer

  public init(colours: TrayColours) {
    self.colours = colours
    fontOptions = cairo_font_options_create()
    cairo_font_options_set_hint_metrics(fontOptions, CAIRO_HINT_METRICS_OFF)
    cairo_font_options_set_antialias(fontOptions, CAIRO_ANTIALIAS_GRAY)
    fontDescription = pango_font_description_from_string(Self.font)
  }

  deinit {
    canvases.removeAll()
    for case let image? in images.values { cairo_surface_destroy(image) }
    pango_font_description_free(fontDescription)
    cairo_font_options_destroy(fontOptions)
  }

  /// The icon at `size`×`size` pixels.
  public func draw(_ frame: BadgeFrame, glyph: TrayGlyph, size: Int) -> IconPixmap {
    let canvas = canvas(size)
    canvas.start(with: glyph) { context in drawGlyph(glyph, on: context, size: canvas.size) }
    if !frame.isHidden { drawBadge(frame, on: canvas) }
    return canvas.pixmap()
  }

  /// The icon at every size in `sizes`, in that order.
  public func drawAll(_ frame: BadgeFrame, glyph: TrayGlyph) -> [IconPixmap] {
    Self.sizes.map { draw(frame, glyph: glyph, size: $0) }
  }

  private func canvas(_ size: Int) -> TrayCanvas {
    if let canvas = canvases[size] { return canvas }
    let canvas = TrayCanvas(size: max(size, 1), fontOptions: fontOptions)
    canvases[size] = canvas
    return canvas
  }

  private func drawGlyph(_ glyph: TrayGlyph, on context: OpaquePointer, size: Int) {
    if case .image(let path) = glyph, let image = image(path) {
      TrayGlyphDrawing.image(context, size: size, image: image)
    } else {
      TrayGlyphDrawing.bell(context, size: size, colour: RGBComponents(colours.glyph))
    }
  }

  /// The PNG at `path`, read once.
  private func image(_ path: String) -> OpaquePointer? {
    if let known = images[path] { return known }
    var image = cairo_image_surface_create_from_png(path)
    if let surface = image, cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS {
      cairo_surface_destroy(surface)
      image = nil
    }
    images[path] = image
    return image
  }

  /// The badge, drawn opaque into a group and painted with the frame's opacity (halved when
  /// muted), so that a fading badge's text fades with it rather than showing through; straight
  /// onto the canvas when it is opaque, as it is at rest and through the bounce.
  private func drawBadge(_ frame: BadgeFrame, on canvas: TrayCanvas) {
    let alpha = frame.opacity * (frame.muted ? BadgeMotions.mutedOpacity : 1)
    guard alpha > 0, frame.scale > 0 else { return }
    let badge = RGBComponents(
      frame.muted ? TrayColours.muted : frame.online ? colours.badge : TrayColours.offline)
    let context = canvas.context
    let translucent = alpha < 1
    if translucent { cairo_push_group(context) }
    if frame.dot {
      drawDot(frame, colour: badge, on: canvas)
    } else {
      drawCapsule(frame, colour: badge, on: canvas)
    }
    guard translucent else { return }
    cairo_pop_group_to_source(context)
    cairo_paint_with_alpha(context, alpha)
  }

  /// A filled circle the capsule's height across; while pulsing, a ring around it.
  private func drawDot(_ frame: BadgeFrame, colour: RGBComponents, on canvas: TrayCanvas) {
    let context = canvas.context
    let side = Double(canvas.size)
    let diameter = TrayIconGeometry.capsuleHeight * side
    let centre = TrayIconGeometry.badgeCentre(size: canvas.size, restingWidth: diameter)
    cairo_new_path(context)
    cairo_arc(context, centre.x, centre.y, diameter * frame.scale / 2, 0, 2 * Double.pi)
    cairo_set_source_rgba(context, colour.red, colour.green, colour.blue, 1)
    cairo_fill(context)
    guard frame.pulsing else { return }
    cairo_arc(context, centre.x, centre.y, diameter / 2 * frame.dotScale, 0, 2 * Double.pi)
    cairo_set_line_width(context, TrayIconGeometry.ringWidth * side)
    cairo_set_source_rgba(context, colour.red, colour.green, colour.blue, frame.dotOpacity)
    cairo_stroke(context)
  }

  /// The capsule with its label centred (or, while the digits roll, the outgoing and incoming
  /// labels moved up or down and clipped to the capsule).
  private func drawCapsule(_ frame: BadgeFrame, colour: RGBComponents, on canvas: TrayCanvas) {
    let context = canvas.context
    let exactHeight = TrayIconGeometry.capsuleHeight(size: canvas.size, scale: frame.scale)
    pango_font_description_set_absolute_size(
      fontDescription, TrayIconGeometry.textSize * exactHeight * Double(PANGO_SCALE))
    pango_layout_set_font_description(canvas.layout, fontDescription)
    let label = setText(frame.drawnLabel, on: canvas)
    let textWidth = Double(label.width) / Double(PANGO_SCALE)
    let width = TrayIconGeometry.capsuleWidth(height: exactHeight, textWidth: textWidth)
    let point = TrayIconGeometry.badgeCentre(size: canvas.size, restingWidth: width / frame.scale)
    let rows = TrayIconGeometry.capsuleRows(size: canvas.size, scale: frame.scale, centreY: point.y)
    let height = rows.height
    let centre = (x: point.x, y: rows.top + height / 2)
    capsulePath(
      context, centreX: centre.x, centreY: centre.y, width: max(width, height), height: height)
    cairo_set_source_rgba(context, colour.red, colour.green, colour.blue, 1)
    let text = RGBComponents(colours.text)
    guard let roll = frame.roll else {
      cairo_fill(context)
      cairo_set_source_rgba(context, text.red, text.green, text.blue, 1)
      showText(label, on: canvas, centreX: centre.x, centreY: centre.y)
      return
    }
    cairo_fill_preserve(context)
    cairo_save(context)
    cairo_clip(context)
    cairo_set_source_rgba(context, text.red, text.green, text.blue, 1)
    showText(label, on: canvas, centreX: centre.x, centreY: centre.y + roll.offset * height)
    let outgoing = setText(roll.from, on: canvas)
    showText(outgoing, on: canvas, centreX: centre.x, centreY: centre.y + roll.outgoingOffset * height)
    cairo_restore(context)
  }

  /// Puts `text` into the canvas's layout; its logical rectangle, in pango units.
  private func setText(_ text: String, on canvas: TrayCanvas) -> PangoRectangle {
    pango_layout_set_text(canvas.layout, text, -1)
    var logical = PangoRectangle()
    pango_layout_get_extents(canvas.layout, nil, &logical)
    return logical
  }

  /// Shows the layout's text with its logical rectangle (`logical`, in pango units) centred on
  /// the point.
  private func showText(_ logical: PangoRectangle, on canvas: TrayCanvas, centreX: Double, centreY: Double) {
    let scale = Double(PANGO_SCALE)
    let x = centreX - Double(logical.width) / scale / 2 - Double(logical.x) / scale
    let y = centreY - Double(logical.height) / scale / 2 - Double(logical.y) / scale
    cairo_move_to(canvas.context, x, y)
    pango_cairo_show_layout(canvas.context, canvas.layout)
  }

  /// A capsule (a rectangle with half-circle ends) centred on the point.
  private func capsulePath(_ context: OpaquePointer, centreX: Double, centreY: Double, width: Double, height: Double) {
    let radius = height / 2
    let left = centreX - width / 2 + radius
    let right = centreX + width / 2 - radius
    cairo_new_path(context)
    cairo_arc(context, left, centreY, radius, Double.pi / 2, 3 * Double.pi / 2)
    cairo_arc(context, right, centreY, radius, 3 * Double.pi / 2, Double.pi / 2)
    cairo_close_path(context)
  }
}
