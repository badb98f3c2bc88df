import BadgeSystem

/// What wakes a connection's thread from its read: the owner `signal()`s when it has work (a
/// mark-read, a liveness check, a stop), the read returns `.woken`, and the thread `drain()`s
/// it and looks at its work. A non-blocking pipe (Swift's Glibc module does not show eventfd):
/// any number of signals before a drain are one wake-up, and a signal never blocks, the pipe
/// being full only when a wake-up is already due.
public final class WakeSignal: @unchecked Sendable {
  private let ends: (read: FileDescriptor, write: FileDescriptor)

  public init() throws(SystemError) {
    ends = try FileDescriptor.pipe(nonBlockingRead: true, nonBlockingWrite: true)
  }

  deinit {
    ends.read.close()
    ends.write.close()
  }

  /// The descriptor `ImapTransport.read` waits on.
  public var fd: CInt { ends.read.rawValue }

  /// Makes the next (or the current) read return `.woken`; from any thread.
  public func signal() {
    let one: [UInt8] = [1]
    _ = one.withUnsafeBytes { try? ends.write.write($0) }
  }

  /// Takes back every signal so far, so the next read waits again.
  public func drain() {
    var buffer = [UInt8](repeating: 0, count: 64)
    while case .processed(let n)? = try? buffer.withUnsafeMutableBytes({ try ends.read.read(into: $0) }), n > 0 {}
  }
}
