import Glibc

/// Process-wide signal settings.
public enum Signals {
  /// Blocks `signals` in the calling thread and every thread it starts later, so that an event
  /// loop can receive them through a signalfd. Call first thing in `main`.
  public static func block(_ signals: [CInt]) {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in signals { sigaddset(&set, signal) }
    pthread_sigmask(SIG_BLOCK, &set, nil)
  }

  /// Ignores SIGPIPE, so a write to a closed pipe or socket fails with `EPIPE` instead.
  public static func ignoreBrokenPipe() {
    signal(SIGPIPE, SIG_IGN)
  }

  /// Ignores `number` in this process.
  public static func ignore(_ number: CInt) {
    signal(number, SIG_IGN)
  }
}
