import BadgeSystem
import Glibc

/// A thread of its own for work that may block (a notmuch database's opens, counts and id
/// lists, and a mark-read waiting for a writer's lock), whose results come back on the event
/// loop: a 100,000-message recount or a held lock never stalls the loop's other sources.
///
/// Jobs run one at a time, in the order given, on the worker's thread, each with the worker's
/// `State` (a database, opened and reopened there and nowhere else). A job's result comes back
/// through a `LoopInbox`, which hands it to the job's completion on the loop's thread, in order.
public final class LoopWorker<State>: @unchecked Sendable {
  /// One job: its work on the worker's thread, its completion on the loop's.
  private struct Job {
    let work: (inout State) -> Any
    let done: (Any) -> Void
  }

  private var state: State
  private var jobs: [Job] = []
  private var stopping = false
  private var mutex = pthread_mutex_t()
  private var wake = pthread_cond_t()
  private var thread = pthread_t()
  private let results: LoopInbox<(Any, (Any) -> Void)>

  /// Starts the thread, with `state` moved to it.
  ///
  /// - Throws: `SystemError` when the pipe, its watch or the thread cannot be made.
  public init(loop: EventLoop, state: State) throws(SystemError) {
    self.state = state
    pthread_mutex_init(&mutex, nil)
    pthread_cond_init(&wake, nil)
    results = try LoopInbox(loop: loop) { pair in pair.1(pair.0) }
    do {
      thread = try startThread { [self] in runJobs() }
    } catch {
      results.close()
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
    results.close()
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
      results.post((job.work(&state), job.done))
    }
  }
}
