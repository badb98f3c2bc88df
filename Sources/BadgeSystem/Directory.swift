import CLinux
import Glibc

/// Folder listings and the one rename a counting source makes, with names as bytes.
///
/// A listing reads the kernel's records (`getdents64` on an `O_DIRECTORY` descriptor): names
/// and their `d_type`, no `stat` per entry, so 100,000 messages cost a few dozen system calls.
public enum Directory {
  /// The size of one `getdents64` read: about 1,500 entries of a Maildir's names.
  static let readSize = 64 * 1024

  /// The entries of the folder at `path` (its bytes), `.` and `..` left out, in the order the
  /// file system keeps them.
  ///
  /// - Throws: `ENOENT` (missing), `ENOTDIR` (not a folder), `EACCES`, …; `EINVAL` for a
  ///   path with a NUL byte.
  public static func list(_ path: some Collection<UInt8>) throws(Errno) -> [DirectoryEntry] {
    let opened = PathBytes.withCString(path) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    guard let fd = opened else { throw Errno(rawValue: EINVAL) }
    guard fd >= 0 else { throw .current }
    defer { close(fd) }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readSize, alignment: 8)
    defer { buffer.deallocate() }
    var entries: [DirectoryEntry] = []
    while true {
      let n = badged_getdents64(fd, buffer.baseAddress, buffer.count)
      if n == 0 { return entries }
      if n < 0 {
        if errno == EINTR { continue }
        throw .current
      }
      decode(UnsafeRawBufferPointer(rebasing: buffer[..<n]), into: &entries)
    }
  }

  /// The entries of the folder at `path` (`list` on its UTF-8 bytes).
  public static func list(_ path: String) throws(Errno) -> [DirectoryEntry] {
    try list(Array(path.utf8))
  }

  /// Appends the entries of `struct linux_dirent64` records (inode, offset, record length,
  /// type, then the NUL-terminated name) to `entries`, skipping `.` and `..`.
  static func decode(_ bytes: UnsafeRawBufferPointer, into entries: inout [DirectoryEntry]) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset + 19 < bytes.count {
      let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt16.self))
      guard length > 19, offset + length <= bytes.count else { return }
      let type = bytes[offset + 18]
      let start = base + offset + 19
      let room = length - 19
      let end = memchr(start, 0, room).map { $0 - UnsafeMutableRawPointer(mutating: start) } ?? room
      let name = Array(UnsafeRawBufferPointer(start: start, count: end))
      offset += length
      if name == [0x2E] || name == [0x2E, 0x2E] { continue }
      entries.append(DirectoryEntry(name: name, kind: DirectoryEntry.Kind(type: type)))
    }
  }

  /// What `renameNoReplace` did.
  public enum RenameOutcome: Equatable, Sendable {
    case renamed
    /// `ENOENT`: nothing at the old path (moved or removed meanwhile), or the new path's
    /// folder is missing.
    case sourceMissing
    /// `EEXIST`: something is at the new path already, and was left as it was.
    case targetExists
  }

  /// Renames `from` to `to` (their bytes) unless `to` exists, in one step
  /// (`renameat2(RENAME_NOREPLACE)`): marking a message read never replaces another.
  ///
  /// - Throws: any other error (`EXDEV`, `EACCES`, `EINVAL` for a file system that cannot, or
  ///   for a path with a NUL byte).
  public static func renameNoReplace(
    from: some Collection<UInt8>, to: some Collection<UInt8>
  ) throws(Errno) -> RenameOutcome {
    let result = PathBytes.withCString(from) { old in
      PathBytes.withCString(to) { new in badged_rename_noreplace(old, new) }
    }
    guard let result = result ?? nil else { throw Errno(rawValue: EINVAL) }
    guard result != 0 else { return .renamed }
    switch errno {
    case ENOENT: return .sourceMissing
    case EEXIST: return .targetExists
    default: throw .current
    }
  }
}

/// One entry of a folder: its name and what the kernel says it is.
public struct DirectoryEntry: Equatable, Hashable, Sendable {
  /// The entry's type from `d_type`, without a `stat`.
  public enum Kind: Equatable, Hashable, Sendable {
    case file
    case folder
    case symbolicLink
    /// A device, FIFO or socket.
    case other
    /// `DT_UNKNOWN`: the file system does not say (some do not); `stat` it to know.
    case unknown

    init(type: UInt8) {
      switch Int(type) {
      case Int(DT_REG): self = .file
      case Int(DT_DIR): self = .folder
      case Int(DT_LNK): self = .symbolicLink
      case Int(DT_UNKNOWN): self = .unknown
      default: self = .other
      }
    }
  }

  public let name: [UInt8]
  public let kind: Kind

  public init(name: [UInt8], kind: Kind) {
    self.name = name
    self.kind = kind
  }
}
