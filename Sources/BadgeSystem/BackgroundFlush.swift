import Glibc

/// `fdatasync` of an append-only file on a thread of its own, so the event loop keeps serving
/// while the disk catches up: what `sync = everysec` needs, as no reply waits for its flush,
/// and a flush can take far longer than a turn when the disk is busy.
///
/// One flush at a time. The thread works on a duplicate of the file's descriptor, so closing
/// or replacing the file meanwhile cannot make it flush another file. Its result comes back on
/// the loop thread: the thread writes a byte to a pipe the loop watches, and the loop joins it
/// (`pthread_join` orders the thread's writes before the loop's reads) and passes the result
/// to `finished`. `wait()` does the same at once, for whoever must not overlap a flush.
public final class BackgroundFlush {
  /// One flush in flight: written by its thread until it exits, read by the loop after joining.
  private final class Job: @unchecked Sendable {
    let descriptor: CInt
    let path: String
    let wakeUp: CInt
    var error: CInt = 0
    var thread = pthread_t()

    init(descriptor: CInt, path: String, wakeUp: CInt) {
      self.descriptor = descriptor
      self.path = path
      self.wakeUp = wakeUp
    }
  }

  /// The pipe's ends: the loop watches `wakeUp`, a finished flush writes to `wakeUpWriter`.
  private let wakeUp: CInt
  private let wakeUpWriter: CInt
  private var watch: IOSource?
  private var job: Job?
  /// Called on the loop thread with each flush's failure, or `nil` when it succeeded.
  private let finished: (SystemError?) -> Void

  public init(loop: EventLoop, finished: @escaping (SystemError?) -> Void) throws(SystemError) {
    let ends = try FileDescriptor.pipe(nonBlockingRead: true, nonBlockingWrite: true)
    (wakeUp, wakeUpWriter) = (ends.read.rawValue, ends.write.rawValue)
    self.finished = finished
    watch = try loop.addIO(fd: FileDescriptor(rawValue: wakeUp), events: .readable) { [unowned self] _ in
      var byte: UInt8 = 0
      _ = read(wakeUp, &byte, 1)
      wait()
    }
  }

  /// Waits for a flush in flight without reporting it: its owner is going away.
  deinit {
    if let job { pthread_join(job.thread, nil) }
    watch?.cancel()
    close(wakeUp)
    close(wakeUpWriter)
  }

  /// Whether a flush is in flight (started, its result not yet handed to `finished`).
  public var isRunning: Bool { job != nil }

  /// Starts flushing `file` on a new thread; at most one flush runs at a time.
  ///
  /// - Throws: `SystemError` when the descriptor cannot be duplicated or the thread not
  ///   started; nothing is in flight then.
  public func start(_ file: AppendOnlyFile) throws(SystemError) {
    precondition(job == nil, "one background flush at a time")
    let descriptor = try file.duplicateDescriptor()
    let job = Job(descriptor: descriptor, path: file.path, wakeUp: wakeUpWriter)
    let context = Unmanaged.passRetained(job).toOpaque()
    let status = pthread_create(
      &job.thread, nil,
      { context in
        let job = Unmanaged<Job>.fromOpaque(context!).takeRetainedValue()
        if fdatasync(job.descriptor) != 0 { job.error = errno }
        close(job.descriptor)
        var byte: UInt8 = 1
        _ = write(job.wakeUp, &byte, 1)
        return nil
      }, context)
    guard status == 0 else {
      Unmanaged<Job>.fromOpaque(context).release()
      close(descriptor)
      throw SystemError("start a thread to flush '\(file.path)'", Errno(rawValue: status))
    }
    self.job = job
  }

  /// Waits for the flush in flight, if any, and hands its result to `finished`.
  public func wait() {
    guard let job else { return }
    self.job = nil
    pthread_join(job.thread, nil)
    if job.error == 0 {
      StorageTrace.record(.flush(path: job.path))
      finished(nil)
    } else {
      finished(SystemError("flush '\(job.path)' to disk", Errno(rawValue: job.error)))
    }
  }
}
