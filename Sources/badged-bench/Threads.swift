import Glibc

/// Runs `body` on a thread of its own; `join` waits for it. (No Foundation: the generator
/// keeps to Glibc.)
final class WorkerThread {
  private final class Body {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
  }

  private var thread = pthread_t()

  init(_ body: @escaping () -> Void) {
    let box = Unmanaged.passRetained(Body(body)).toOpaque()
    let result = pthread_create(
      &thread, nil,
      { raw in
        let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
        body.run()
        return nil
      }, box)
    if result != 0 { fail("pthread_create: \(result)") }
  }

  func join() { pthread_join(thread, nil) }
}
