import BadgeSystem
import Glibc

/// A thread of its own for work that may block (a notmuch database's opens, counts and id
/// lists, and a mark-read waiting for a writer's lock), whose results come back on the event
/// loop: a 100,000-message recount or a held lock never stalls the loop's other sources.
///
/// Jobs run one at a time, in the order given, on the worker's thread, each with the worker's
/// `State` (a database, opened and reopened there and nowhere else). A job's result is queued
/// and a byte written to a pipe the loop watches; the loop hands each result to the job's
/// completion, on the loop's thread, in order.
public final class LoopWorker<State>: @unchecked Sendable {
  /// One job: its work on the worker's thread, its completion on the loop's.
  private struct Job {
    let work: (inout State) -> Any
    let done: (Any) -> Void
  }

  private var state: State
  private var jobs: [Job] = []
  private var results: [(Any, (Any) -> Void)] = []
  private var stopping = false
  private var mutex = pthread_mutex_t()
  private var wake = pthread_cond_t()
  private var thread = pthread_t()
  /// The pipe that wakes the loop: the worker writes a byte per result (a full pipe loses
  /// none: the loop takes every queued result on each wakeup).
  private let ready: (read: FileDescriptor, write: FileDescriptor)
  private var readySource: IOSource?

  /// Starts the thread, with `state` moved to it.
  ///
  /// - Throws: `SystemError` when the pipe, its watch or the thread cannot be made.
  public init(loop: EventLoop, state: State) throws(SystemError) {
    self.state = state
    pthread_mutex_init(&mutex, nil)
    pthread_cond_init(&wake, nil)
    ready = try FileDescriptor.pipe(nonBlockingRead: true, nonBlockingWrite: true)
    do {
      readySource = try loop.addIO(fd: ready.read, events: .readable) { [unowned self] _ in deliver() }
    } catch {
      ready.read.close()
      ready.write.close()
      throw error
    }
    do {
      thread = try startThread { [self] in runJobs() }
    } catch {
      readySource?.cancel()
      ready.read.close()
      ready.write.close()
      throw error
    }
  }

  /// Runs `work` on the worker's thread, then `done` with its result on the loop's.
  public func submit<Result>(_ work: @escaping (inout State) -> Result, done: @escaping (Result) -> Void) {
    pthread_mutex_lock(&mutex)
    jobs.append(Job(work: { work(&$0) }, done: { done($0 as! Result) }))
    pthread_cond_signal(&wake)
    pthread_mutex_unlock(&mutex)
  }

  /// Lets the thread finish the job under way, drops the others, and waits for it to end;
  /// results not yet delivered are dropped. Call before releasing the worker.
  public func stop() {
    pthread_mutex_lock(&mutex)
    guard !stopping else {
      pthread_mutex_unlock(&mutex)
      return
    }
    stopping = true
    jobs = []
    pthread_cond_signal(&wake)
    pthread_mutex_unlock(&mutex)
    pthread_join(thread, nil)
    readySource?.cancel()
    readySource = nil
    ready.read.close()
    ready.write.close()
    results = []
  }

  /// The worker's thread: each job in turn until `stop()`.
  private func runJobs() {
    while true {
      pthread_mutex_lock(&mutex)
      while jobs.isEmpty && !stopping { pthread_cond_wait(&wake, &mutex) }
      guard !stopping else {
        pthread_mutex_unlock(&mutex)
        return
      }
      let job = jobs.removeFirst()
      pthread_mutex_unlock(&mutex)
      let result = job.work(&state)
      pthread_mutex_lock(&mutex)
      results.append((result, job.done))
      pthread_mutex_unlock(&mutex)
      var one: UInt8 = 1
      _ = write(ready.write.rawValue, &one, 1)
    }
  }

  /// On the loop: the results that are ready, each to its completion.
  private func deliver() {
    var bytes = [UInt8](repeating: 0, count: 64)
    while read(ready.read.rawValue, &bytes, bytes.count) == bytes.count {}
    pthread_mutex_lock(&mutex)
    let ready = results
    results = []
    pthread_mutex_unlock(&mutex)
    for (result, done) in ready { done(result) }
  }
}

/// A closure for a new thread to run.
private final class ThreadBody {
  let run: () -> Void
  init(_ run: @escaping () -> Void) { self.run = run }
}

/// Starts a thread running `body`, which holds what it captures until it returns.
private func startThread(_ body: @escaping () -> Void) throws(SystemError) -> pthread_t {
  var thread = pthread_t()
  let box = Unmanaged.passRetained(ThreadBody(body))
  let started = pthread_create(
    &thread, nil,
    { raw in
      Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().run()
      return nil
    }, box.toOpaque())
  guard started == 0 else {
    box.release()
    throw SystemError("start a worker thread", Errno(rawValue: started))
  }
  return thread
}
