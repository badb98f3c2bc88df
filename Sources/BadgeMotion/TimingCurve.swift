/// A cubic Bézier timing curve from (0, 0) to (1, 1), as CSS and `CAMediaTimingFunction`
/// define them: time runs along x, progress along y.
public struct TimingCurve: Sendable, Equatable {
  /// The first control point; x is kept within 0…1 so that the curve is a function of time.
  public let p1: (x: Double, y: Double)
  /// The second control point; x is kept within 0…1.
  public let p2: (x: Double, y: Double)

  /// How close x(u) must come to the asked time.
  public static let tolerance = 1e-9

  /// A curve with control points (x1, y1) and (x2, y2); x values are clamped to 0…1.
  public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
    p1 = (min(max(x1, 0), 1), y1)
    p2 = (min(max(x2, 0), 1), y2)
  }

  public static let linear = TimingCurve(0, 0, 1, 1)
  public static let easeIn = TimingCurve(0.42, 0, 1, 1)
  public static let easeOut = TimingCurve(0, 0, 0.58, 1)
  public static let easeInOut = TimingCurve(0.42, 0, 0.58, 1)

  public static func == (lhs: TimingCurve, rhs: TimingCurve) -> Bool {
    lhs.p1 == rhs.p1 && lhs.p2 == rhs.p2
  }

  /// Whether the curve is the identity: both control points on the diagonal.
  var isLinear: Bool { p1.x == p1.y && p2.x == p2.y }

  /// The progress at `time` (0…1); exactly 0 and 1 at and beyond the ends.
  public func value(at time: Double) -> Double {
    state(at: time).value
  }

  /// dy/dx at `time`: the rate of progress per unit of time, for carrying velocity over.
  public func slope(at time: Double) -> Double {
    state(at: time).slope
  }

  /// The progress and its slope at `time`, from one solve of the Bézier parameter (a frame
  /// needs both, and the solve is the costly part).
  func state(at time: Double) -> (value: Double, slope: Double) {
    if isLinear { return (min(max(time, 0), 1), 1) }
    var u = parameter(at: min(max(time, 0), 1))
    let value = time <= 0 ? 0 : time >= 1 ? 1 : TimingCurve.bezier(u, p1.y, p2.y)
    // Where a control point sits on an end point both derivatives vanish there; the slope is
    // their limit, which a parameter a hair inside the curve gives.
    if TimingCurve.derivative(u, p1.x, p2.x) < 1e-9 {
      u = min(max(u, 1e-6), 1 - 1e-6)
    }
    return (value, TimingCurve.derivative(u, p1.y, p2.y) / TimingCurve.derivative(u, p1.x, p2.x))
  }

  /// The Bézier parameter u with x(u) = `time`: Newton's method from u = time, falling back to
  /// bisection when a step leaves 0…1 or the slope is too flat to trust.
  public func parameter(at time: Double) -> Double {
    var u = time
    for _ in 0..<8 {
      let error = TimingCurve.bezier(u, p1.x, p2.x) - time
      if abs(error) < TimingCurve.tolerance { return u }
      let dx = TimingCurve.derivative(u, p1.x, p2.x)
      guard abs(dx) > 1e-6 else { break }
      let next = u - error / dx
      guard next >= 0, next <= 1 else { break }
      u = next
    }
    var (low, high) = (0.0, 1.0)
    u = time
    for _ in 0..<100 {
      let x = TimingCurve.bezier(u, p1.x, p2.x)
      if abs(x - time) < TimingCurve.tolerance { break }
      if x < time { low = u } else { high = u }
      u = (low + high) / 2
    }
    return u
  }

  /// One coordinate of the curve at parameter u, for inner control values a and b.
  static func bezier(_ u: Double, _ a: Double, _ b: Double) -> Double {
    let v = 1 - u
    return 3 * v * v * u * a + 3 * v * u * u * b + u * u * u
  }

  /// The derivative of `bezier` with respect to u.
  static func derivative(_ u: Double, _ a: Double, _ b: Double) -> Double {
    let v = 1 - u
    return 3 * v * v * a + 6 * v * u * (b - a) + 3 * u * u * (1 - b)
  }
}
