import BadgeSystem
import Glibc
import Testing

/// Signal sources, and the process-wide signal settings.
@Suite struct SignalTests {
  /// Runs `body` and puts the thread's signal mask back as it was. Test threads are shared
  /// worker threads, which already block most signals (libdispatch does so).
  static func keepingTheSignalMask<R>(_ body: () throws -> R) rethrows -> R {
    var saved = sigset_t()
    pthread_sigmask(SIG_SETMASK, nil, &saved)
    defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
    return try body()
  }

  static func unblock(_ signal: CInt) {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signal)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
  }

  static func isBlocked(_ signal: CInt) -> Bool {
    var set = sigset_t()
    pthread_sigmask(SIG_BLOCK, nil, &set)
    return sigismember(&set, signal) == 1
  }

  @Test func aSignalSourceReceivesABlockedSignal() throws {
    // SIGURG is ignored by default, so a stray delivery cannot end the test process. It goes
    // to this thread with pthread_kill: the test process has many threads, and a kill() to the
    // process would be taken by any of them that does not block it, not by our signalfd.
    try Self.keepingTheSignalMask {
      Self.unblock(SIGURG)
      Signals.block([SIGURG])
      #expect(Self.isBlocked(SIGURG))
      let loop = try EventLoop()
      var received = 0
      let source = try loop.addSignal(SIGURG) {
        received += 1
        loop.exit(code: 11)
      }
      defer { source.cancel() }
      #expect(pthread_kill(pthread_self(), SIGURG) == 0)
      #expect(try loop.runGuarded() == 11)
      #expect(received == 1)
    }
  }

  @Test func aSignalThatIsNotBlockedIsRefused() throws {
    try Self.keepingTheSignalMask {
      Self.unblock(SIGWINCH)
      let loop = try EventLoop()
      do throws(SystemError) {
        let source = try loop.addSignal(SIGWINCH) {}
        source.cancel()
        Issue.record("sd-event took a signal it cannot read")
      } catch {
        #expect(error.errno == Errno(rawValue: EBUSY))
        #expect(error.operation == "handle signal \(SIGWINCH)")
      }
    }
  }

  @Test func blockAddsToTheThreadsMask() {
    Self.keepingTheSignalMask {
      Self.unblock(SIGUSR2)
      Self.unblock(SIGURG)
      Signals.block([SIGUSR2])
      #expect(Self.isBlocked(SIGUSR2))
      #expect(!Self.isBlocked(SIGURG), "only the signals named")
      Signals.block([SIGURG])
      #expect(Self.isBlocked(SIGUSR2), "blocking more keeps the earlier ones")
      #expect(Self.isBlocked(SIGURG))
    }
  }

  @Test func ignoringBrokenPipeTurnsWritesToAClosedPipeIntoErrors() throws {
    Signals.ignoreBrokenPipe()
    var fds: [CInt] = [-1, -1]
    #expect(pipe(&fds) == 0)
    let writer = FileDescriptor(rawValue: fds[1])
    defer { writer.close() }
    Glibc.close(fds[0])
    // A plain write(2), not send(MSG_NOSIGNAL): without the setting this would end the process.
    #expect(throws: Errno.brokenPipe) { try writer.writeAll(Array("x".utf8)) }
  }
}
