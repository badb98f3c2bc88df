import BadgeCore

@testable import BadgeRender

/// A watcher driven by a manual clock, as `badgectl watch` drives its animators and renderer
/// with the real one: snapshots arrive at the clock's time, frames are drawn at wake times.
struct ManualWatcher {
  private(set) var now: Double
  private(set) var group: AnimatorGroup
  private(set) var renderer: Renderer

  init(
    _ format: OutputFormat, options: RenderOptions = RenderOptions(),
    animator: AnimatorOptions = AnimatorOptions(), at start: Double = 0
  ) {
    now = start
    group = AnimatorGroup(options: animator)
    renderer = Renderer(format: format, options: options)
  }

  /// A watcher that saw `channel` go from `old` to `new` at t = 10.
  static func countChanged(
    _ format: OutputFormat, from old: Int = 3, to new: Int = 4,
    options: RenderOptions = RenderOptions()
  ) -> ManualWatcher {
    var watcher = ManualWatcher(format, options: options, at: 10)
    watcher.receive(snapshot(count: old))
    watcher.receive(snapshot(count: new))
    return watcher
  }

  /// A snapshot arriving now.
  mutating func receive(_ snapshot: ChannelSnapshot) {
    group.update(snapshot, at: now)
  }

  mutating func advance(to time: Double) {
    now = time
  }

  mutating func advance(by seconds: Double) {
    now += seconds
  }

  /// What the watcher writes now.
  mutating func draw() -> String {
    renderer.render(group.frames(at: now))
  }

  var nextWake: Double? { group.nextWake(after: now) }

  /// Draws at every wake until nothing moves, returning each (time, output); stops after
  /// `limit` frames so that a bug that never settles fails instead of hanging.
  mutating func runUntilIdle(limit: Int = 10_000) -> [(time: Double, output: String)] {
    var drawn: [(Double, String)] = []
    while let wake = nextWake, drawn.count < limit {
      now = wake
      drawn.append((now, draw()))
    }
    return drawn
  }
}
