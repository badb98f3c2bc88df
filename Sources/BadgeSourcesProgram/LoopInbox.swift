import BadgeSystem
import Glibc

/// Items that threads post and the event loop receives, in the order posted: a queue under a
/// mutex, and a pipe whose read end the loop watches (one byte per post; a full pipe loses
/// none, as the loop takes every queued item at each wakeup).
///
/// `LoopWorker`'s results and the IMAP connections' news both come back this way.
final class LoopInbox<Item>: @unchecked Sendable {
  private var items: [Item] = []
  private var mutex = pthread_mutex_t()
  private let ready: (read: FileDescriptor, write: FileDescriptor)
  private var readySource: IOSource?
  private let receive: (Item) -> Void

  /// Watches the pipe on `loop`; `receive` gets each item on the loop's thread.
  ///
  /// - Throws: `SystemError` when the pipe or its watch cannot be made.
  init(loop: EventLoop, receive: @escaping (Item) -> Void) throws(SystemError) {
    self.receive = receive
    pthread_mutex_init(&mutex, nil)
    ready = try FileDescriptor.pipe(nonBlockingRead: true, nonBlockingWrite: true)
    do {
      readySource = try loop.addIO(fd: ready.read, events: .readable) { [unowned self] _ in deliver() }
    } catch {
      ready.read.close()
      ready.write.close()
      throw error
    }
  }

  /// From any thread.
  func post(_ item: Item) {
    pthread_mutex_lock(&mutex)
    items.append(item)
    pthread_mutex_unlock(&mutex)
    var one: UInt8 = 1
    _ = write(ready.write.rawValue, &one, 1)
  }

  /// Stops watching the pipe and closes it; items not yet received are dropped. Call once no
  /// thread posts any more, before releasing the inbox.
  func close() {
    guard let source = readySource else { return }
    source.cancel()
    readySource = nil
    ready.read.close()
    ready.write.close()
    pthread_mutex_lock(&mutex)
    items = []
    pthread_mutex_unlock(&mutex)
  }

  /// On the loop: every queued item, in order.
  private func deliver() {
    var bytes = [UInt8](repeating: 0, count: 64)
    while read(ready.read.rawValue, &bytes, bytes.count) == bytes.count {}
    pthread_mutex_lock(&mutex)
    let taken = items
    items = []
    pthread_mutex_unlock(&mutex)
    for item in taken {
      guard readySource != nil else { return }
      receive(item)
    }
  }
}

/// A closure for a new thread to run.
private final class ThreadBody {
  let run: () -> Void
  init(_ run: @escaping () -> Void) { self.run = run }
}

/// Starts a thread running `body`, which holds what it captures until it returns.
func startThread(_ body: @escaping () -> Void) throws(SystemError) -> pthread_t {
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
    throw SystemError("start a thread", Errno(rawValue: started))
  }
  return thread
}
