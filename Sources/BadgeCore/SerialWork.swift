/// Runs an owner's work one piece at a time, in the order it comes: a piece that arrives while
/// another runs (a callback fired from inside it: a library reporting a lost connection from
/// inside a publish) waits until that one returns, instead of running inside it.
///
/// An owner whose work walks a list of things to do (the bridge's `perform`) would otherwise be
/// entered again halfway through its list, and carry out what is left of it after the newer
/// list, out of order.
public final class SerialWork {
  private var running = false
  /// Work that arrived while other work ran, oldest first.
  private var held: [() -> Void] = []
  /// How many of `held` have run.
  private var next = 0

  public init() {}

  /// Whether a piece of work is running now.
  public var isRunning: Bool { running }

  /// Runs `work` now, or, when called from inside other work, once that work (and whatever
  /// waited before `work`) has returned.
  public func run(_ work: @escaping () -> Void) {
    guard !running else {
      held.append(work)
      return
    }
    running = true
    work()
    while next < held.count {
      let piece = held[next]
      next += 1
      piece()
    }
    held.removeAll(keepingCapacity: true)
    next = 0
    running = false
  }
}
