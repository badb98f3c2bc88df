import BadgeCore
import Glibc

/// Whole-file reads and crash-safe whole-file writes, for the state folder.
public enum StateFiles {
  /// The bytes of the file at `path`, or `nil` when there is none.
  public static func read(_ path: String) throws(SystemError) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      if Errno.current == .noSuchFile { return nil }
      throw SystemError("open '\(path)'", .current)
    }
    let file = FileDescriptor(rawValue: fd)
    defer { file.close() }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let result: Result<IOResult, Errno> = chunk.withUnsafeMutableBytes { raw in
        Result { () throws(Errno) in try file.read(into: raw) }
      }
      switch result {
      case .success(.processed(let n)): bytes += chunk[..<n]
      case .success: return bytes  // end of file (a regular file never blocks)
      case .failure(let e): throw SystemError("read '\(path)'", e)
      }
    }
  }

  /// Replaces the file at `path` with `bytes` so that a crash at any moment leaves either the
  /// old file or the new one, complete: write `path.tmp`, flush it, rename it over `path`,
  /// flush the folder.
  public static func replace(_ path: String, with bytes: [UInt8]) throws(SystemError) {
    let temporary = path + ".tmp"
    let file = try AppendOnlyFile(path: temporary, truncate: true)
    do {
      try file.append(bytes)
      try file.flush()
      file.close()
    } catch {
      file.close()
      FileSystem.remove(temporary)
      throw error
    }
    guard rename(temporary, path) == 0 else {
      let e = Errno.current
      FileSystem.remove(temporary)
      throw SystemError("rename '\(temporary)' to '\(path)'", e)
    }
    StorageTrace.record(.rename(from: temporary, to: path))
    try syncFolder(FileSystem.folder(of: path))
  }

  /// Flushes a folder's entries (renames, new files) to disk.
  public static func syncFolder(_ path: String) throws(SystemError) {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw SystemError("open folder '\(path)'", .current) }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw SystemError("flush folder '\(path)'", .current) }
    StorageTrace.record(.flushFolder(path: path))
  }

  /// Copies the file at `source` to a new file `destination` (mode 0600), flushed.
  public static func copy(_ source: String, to destination: String) throws(SystemError) {
    let bytes = try read(source) ?? []
    let file = try AppendOnlyFile(path: destination, truncate: true)
    defer { file.close() }
    try file.append(bytes)
    try file.flush()
  }

  /// A name beside `path` that no file has yet: `path.<suffix>`, `path.<suffix>.1`, …
  public static func unusedName(beside path: String, suffix: String) -> String {
    var candidate = "\(path).\(suffix)"
    var n = 1
    while FileSystem.exists(candidate) {
      candidate = "\(path).\(suffix).\(n)"
      n += 1
    }
    return candidate
  }

  /// Seconds since the epoch, for naming kept copies of damaged files.
  public static var wallClockSeconds: Int { Int(time(nil)) }
}

/// A file written only at its end (mode 0600), as the journal is: each write goes at `size`
/// with `pwrite`, not through `O_APPEND`, so that the file can hold room ahead of its end.
///
/// Room is zeros written past `size` and flushed (`makeRoom`): bytes the file system has
/// already allocated and recorded, so a later write into them followed by `fdatasync` flushes
/// that data alone, where a write that makes the file longer also commits its new size (on
/// ext4 a journal commit). Readers take zeros after the last record for room (`RecordFile`).
public final class AppendOnlyFile {
  public let path: String
  private var fd: CInt
  /// The end of what was written: what was there when opened plus everything appended. The
  /// room, if any, lies past it.
  public private(set) var size: Int
  /// The file's length on disk: `size` plus the room.
  public private(set) var allocated: Int

  /// Opens (creating) the file at `path`, its end at its length on disk: a file with room is
  /// not reopened for appending (the daemon starts each life with a new journal).
  public init(path: String, truncate: Bool = false) throws(SystemError) {
    self.path = path
    var flags = O_WRONLY | O_CREAT | O_CLOEXEC
    if truncate { flags |= O_TRUNC }
    fd = open(path, flags, 0o600)
    guard fd >= 0 else { throw SystemError("open '\(path)' for writing", .current) }
    StorageTrace.record(.open(path: path, truncate: truncate))
    var st = stat()
    fstat(fd, &st)
    size = Int(st.st_size)
    allocated = size
  }

  deinit { close() }

  /// The zeros written ahead of `size`, which appends fill before the file grows.
  public var room: Int { allocated - size }

  /// Writes all of `bytes` at the end of the file, into the room first. After a failure,
  /// `size` is what it was before: `truncate(to: size)` drops whatever part of `bytes` was
  /// written.
  public func append(_ bytes: [UInt8]) throws(SystemError) {
    try write(bytes, at: size)
    size += bytes.count
    allocated = max(allocated, size)
  }

  /// Makes sure the room holds `count` bytes: when it does not, writes zeros past the end of
  /// the file, to a multiple of `chunk` bytes that leaves room for `count`, and flushes them
  /// (their data and the file's new length), so that the appends that fill them flush no
  /// change of length. Costs a write and a flush once per `chunk` bytes appended. A write that
  /// fails (a full disk, a file size limit) is cut off again, leaving the room as it was.
  public func makeRoom(for count: Int, chunk: Int) throws(SystemError) {
    guard size + count > allocated, chunk > 0 else { return }
    let target = (size + count + chunk - 1) / chunk * chunk
    do {
      try write([UInt8](repeating: 0, count: target - allocated), at: allocated)
    } catch {
      truncate(to: allocated)
      throw error
    }
    allocated = target
    try flush()
  }

  /// `pwrite` of all of `bytes` at `offset`, retrying on `EINTR` and short writes.
  private func write(_ bytes: [UInt8], at offset: Int) throws(SystemError) {
    var written = 0
    while written < bytes.count {
      let n = bytes.withUnsafeBytes { raw in
        pwrite(fd, raw.baseAddress! + written, raw.count - written, off_t(offset + written))
      }
      if n < 0 {
        if Errno.current == .interrupted { continue }
        throw SystemError("write to '\(path)'", .current)
      }
      written += n
    }
    StorageTrace.record(.write(path: path, offset: offset, bytes: bytes))
  }

  /// Flushes the file's data to disk (`fdatasync`).
  public func flush() throws(SystemError) {
    guard fdatasync(fd) == 0 else { throw SystemError("flush '\(path)' to disk", .current) }
    StorageTrace.record(.flush(path: path))
  }

  /// A second descriptor for the same open file (`dup`), for a `BackgroundFlush`: closing
  /// this one does not close it.
  func duplicateDescriptor() throws(SystemError) -> CInt {
    let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
    guard copy >= 0 else { throw SystemError("duplicate the descriptor of '\(path)'", .current) }
    return copy
  }

  /// Cuts the file back to `length` bytes (dropping a write that failed half-way, and any room
  /// past `length` with it: the next `makeRoom` makes it again).
  public func truncate(to length: Int) {
    if ftruncate(fd, off_t(length)) == 0 {
      size = min(size, length)
      allocated = length
      StorageTrace.record(.truncate(path: path, length: length))
    }
  }

  public func close() {
    if fd >= 0 { Glibc.close(fd) }
    fd = -1
  }
}

/// An exclusive lock on a file (`flock`), held until the process exits.
public final class FolderLock {
  private let fd: CInt

  /// Takes the lock at `path`, creating the file (mode 0600).
  ///
  /// - Throws: `SystemError` with `EWOULDBLOCK` when another process holds it.
  public init(_ path: String) throws(SystemError) {
    fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw SystemError("open '\(path)'", .current) }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      let e = Errno.current
      Glibc.close(fd)
      throw SystemError("lock '\(path)' (is another badged using it?)", e)
    }
  }

  deinit { Glibc.close(fd) }
}
