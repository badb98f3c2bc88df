import Foundation

/// MOTION.md's curves, written out again here from their closed forms, so that the watcher's
/// frames are checked against the reference and not against the engine's own code.
enum Reference {
  /// An underdamped spring (mass 1) moving from `from` with velocity `v0` towards `to`:
  /// position and velocity after `t` seconds.
  static func spring(response: Double, damping zeta: Double, from: Double, to: Double, v0: Double, t: Double)
    -> (position: Double, velocity: Double)
  {
    let w0 = 2 * Double.pi / response
    let lambda = zeta * w0
    let wd = w0 * (1 - zeta * zeta).squareRoot()
    let y0 = from - to
    let b = (v0 + lambda * y0) / wd
    let decay = exp(-lambda * t)
    let position = to + decay * (y0 * cos(wd * t) + b * sin(wd * t))
    let velocity = decay * (v0 * cos(wd * t) - (lambda * b + wd * y0) * sin(wd * t))
    return (position, velocity)
  }

  /// The badge bounce: towards 1.3 with spring(0.3, 0.5), retargeted to 1 at 0.12 s with
  /// spring(0.25, 0.6) keeping position and velocity.
  static func bounce(_ t: Double) -> Double {
    let up = { spring(response: 0.3, damping: 0.5, from: 1, to: 1.3, v0: 0, t: $0) }
    guard t >= 0.12 else { return up(t).position }
    let turn = up(0.12)
    return spring(response: 0.25, damping: 0.6, from: turn.position, to: 1, v0: turn.velocity, t: t - 0.12).position
  }

  /// Clearing to 0: opacity 1 → 0 with `.smooth(duration: 0.3)`, a critically damped spring.
  static func fadeOut(_ t: Double) -> Double {
    let w0 = 2 * Double.pi / 0.3
    return exp(-w0 * t) * (1 + w0 * t)
  }

  /// easeInOut, the cubic Bézier (0.42, 0, 0.58, 1), solved for x by bisection.
  static func easeInOut(_ x: Double) -> Double {
    func bezier(_ u: Double, _ p1: Double, _ p2: Double) -> Double {
      3 * (1 - u) * (1 - u) * u * p1 + 3 * (1 - u) * u * u * p2 + u * u * u
    }
    var low = 0.0
    var high = 1.0
    for _ in 0..<60 {
      let mid = (low + high) / 2
      if bezier(mid, 0.42, 0.58) < x { low = mid } else { high = mid }
    }
    return bezier((low + high) / 2, 0, 1)
  }

  /// The pulse's progress p: easeInOut over 0.8 s, there and back.
  static func pulse(_ t: Double) -> Double {
    let cycle = (t / 0.8).rounded(.down)
    let u = t / 0.8 - cycle
    let p = easeInOut(u)
    return Int(cycle) % 2 == 0 ? p : 1 - p
  }
}
