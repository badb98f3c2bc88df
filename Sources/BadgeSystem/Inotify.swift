import Glibc

/// One inotify instance (`inotify_init1(IN_NONBLOCK|IN_CLOEXEC)`): the watches of one counting
/// source and the events they queue. Names stay bytes: a file's name need not be UTF-8.
///
/// Each source has an instance of its own, so a queue that overflows (`.overflow`) says which
/// source must recount. The descriptor is closed by `close()`, not on release.
public final class Inotify {
  /// The instance's descriptor, readable when events are queued.
  public let descriptor: FileDescriptor

  /// The size of one read: room for 240 events with the longest names (16 bytes of header and
  /// up to `NAME_MAX` + 1 of name each), about 1,000 with a Maildir's.
  static let readSize = 64 * 1024

  public init() throws(SystemError) {
    let fd = inotify_init1(CInt(IN_NONBLOCK | IN_CLOEXEC))
    guard fd >= 0 else { throw SystemError("create an inotify instance", .current) }
    descriptor = FileDescriptor(rawValue: fd)
  }

  /// Watches `path` (its bytes) for `mask`; a path watched already gets `mask` instead of the
  /// one it had, and the same descriptor.
  ///
  /// - Throws: `.watchLimitReached` for `ENOSPC`; `.failed` with the error otherwise
  ///   (`EINVAL` for a path with a NUL byte).
  public func addWatch(_ path: some Collection<UInt8>, mask: InotifyMask) throws(InotifyWatchError) -> InotifyWatch {
    let added = PathBytes.withCString(path) { name in
      let wd = inotify_add_watch(descriptor.rawValue, name, mask.rawValue)
      return wd >= 0 ? Result<Int32, Errno>.success(wd) : .failure(.current)
    }
    switch added ?? .failure(Errno(rawValue: EINVAL)) {
    case .success(let wd): return InotifyWatch(rawValue: wd)
    case .failure(let error) where error.rawValue == ENOSPC: throw .watchLimitReached
    case .failure(let error): throw .failed(error)
    }
  }

  /// Watches `path` for `mask` (`addWatch` on the path's UTF-8 bytes).
  public func addWatch(_ path: String, mask: InotifyMask) throws(InotifyWatchError) -> InotifyWatch {
    try addWatch(Array(path.utf8), mask: mask)
  }

  /// Stops a watch; the kernel then queues `IN_IGNORED` for it. `EINVAL` means it was gone
  /// already (its folder removed: the kernel dropped it and queued `IN_IGNORED` itself).
  public func removeWatch(_ watch: InotifyWatch) throws(Errno) {
    guard inotify_rm_watch(descriptor.rawValue, watch.rawValue) == 0 else { throw .current }
  }

  /// Reads what is queued, up to `readSize` bytes of it, as events in the kernel's order; an
  /// empty batch when nothing is (the descriptor is non-blocking).
  public func read() throws(Errno) -> [InotifyEvent] {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readSize, alignment: 8)
    defer { buffer.deallocate() }
    switch try descriptor.read(into: buffer) {
    case .processed(let n): return Self.decode(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
    case .wouldBlock, .endOfFile: return []
    }
  }

  /// Calls `handler` with each batch `read()` returns while the loop runs, or with the error
  /// a read failed with (the owner then cancels the source). The source keeps the instance
  /// alive while it is active; cancel it before `close()`.
  public func watch(
    on loop: EventLoop, _ handler: @escaping (Result<[InotifyEvent], Errno>) -> Void
  ) throws(SystemError) -> IOSource {
    try loop.addIO(fd: descriptor, events: .readable) { _ in
      do throws(Errno) {
        let events = try self.read()
        if !events.isEmpty { handler(.success(events)) }
      } catch {
        handler(.failure(error))
      }
    }
  }

  /// Closes the descriptor, and with it every watch.
  public func close() {
    descriptor.close()
  }

  /// The events in `bytes`: `struct inotify_event` records (wd, mask, cookie, len, then `len`
  /// bytes of name padded with NULs).
  static func decode(_ bytes: UnsafeRawBufferPointer) -> [InotifyEvent] {
    var events: [InotifyEvent] = []
    var offset = 0
    while offset + 16 <= bytes.count {
      let wd = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
      let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
      let cookie = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
      let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
      let nameBytes = bytes[(offset + 16)..<min(offset + 16 + length, bytes.count)]
      offset += 16 + length
      if mask & UInt32(IN_Q_OVERFLOW) != 0 {
        events.append(.overflow)
        continue
      }
      let name = Array(nameBytes.prefix { $0 != 0 })
      events.append(
        .change(
          InotifyChange(
            watch: InotifyWatch(rawValue: wd), mask: InotifyMask(rawValue: mask), cookie: cookie, name: name)))
    }
    return events
  }
}

/// A watch descriptor of one `Inotify` instance.
public struct InotifyWatch: Hashable, Sendable {
  public let rawValue: Int32
  public init(rawValue: Int32) { self.rawValue = rawValue }
}

/// What an event said.
public enum InotifyEvent: Equatable, Sendable {
  /// Something happened under a watch.
  case change(InotifyChange)
  /// The queue was full (`fs.inotify.max_queued_events`) and events were lost since: the one
  /// `IN_Q_OVERFLOW` the kernel queues until the queue is read. Whoever watches must recount.
  case overflow
}

/// One event under a watch.
public struct InotifyChange: Equatable, Sendable {
  public let watch: InotifyWatch
  public let mask: InotifyMask
  /// The same for the `movedFrom` and `movedTo` halves of one rename; 0 otherwise.
  public let cookie: UInt32
  /// The entry's name in the watched folder; empty for an event on the watched path itself.
  public let name: [UInt8]

  public init(watch: InotifyWatch, mask: InotifyMask, cookie: UInt32, name: [UInt8]) {
    self.watch = watch
    self.mask = mask
    self.cookie = cookie
    self.name = name
  }
}

/// The `IN_*` bits: what a watch asks for, and what an event reports.
public struct InotifyMask: OptionSet, Hashable, Sendable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  public static let created = InotifyMask(rawValue: UInt32(IN_CREATE))
  public static let deleted = InotifyMask(rawValue: UInt32(IN_DELETE))
  public static let movedFrom = InotifyMask(rawValue: UInt32(IN_MOVED_FROM))
  public static let movedTo = InotifyMask(rawValue: UInt32(IN_MOVED_TO))
  public static let closedWrite = InotifyMask(rawValue: UInt32(IN_CLOSE_WRITE))
  /// The watched path itself was removed.
  public static let deletedSelf = InotifyMask(rawValue: UInt32(IN_DELETE_SELF))
  /// The watched path itself was moved.
  public static let movedSelf = InotifyMask(rawValue: UInt32(IN_MOVE_SELF))
  /// Only as a watch's option: refuse a path that is not a folder (`ENOTDIR`).
  public static let onlyFolder = InotifyMask(rawValue: UInt32(IN_ONLYDIR))
  /// Only in events: the watch is gone (removed, or its path deleted or unmounted).
  public static let ignored = InotifyMask(rawValue: UInt32(IN_IGNORED))
  /// Only in events: the entry named is a folder.
  public static let isFolder = InotifyMask(rawValue: UInt32(IN_ISDIR))
}

/// Why a watch could not be added.
public enum InotifyWatchError: Error, Equatable, Sendable {
  /// `ENOSPC`: the user's watches are at `fs.inotify.max_user_watches`.
  case watchLimitReached
  /// Any other refusal: `ENOENT`, `ENOTDIR` (with `onlyFolder`), `EACCES`, …
  case failed(Errno)
}
