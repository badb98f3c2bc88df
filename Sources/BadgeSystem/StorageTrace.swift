/// A seam at the lowest storage layer: every write, flush, truncation, rename, removal and
/// folder flush the state files go through (`StateFiles`, `AppendOnlyFile`,
/// `FileSystem.remove`) is reported to `recorder` when one is set, after it succeeded.
///
/// The crash-consistency check (Tests/CrashConsistencyTests) records a run this way and
/// rebuilds, for every prefix of the trace, the files a power cut at that point could leave.
/// The daemon never sets a recorder: then each operation costs one load and one branch.
public enum StorageTrace {
  /// One storage operation, as the file system saw it.
  public enum Event: Equatable, Sendable {
    /// `open` for writing, creating the file if needed; `truncate`: with O_TRUNC.
    case open(path: String, truncate: Bool)
    /// Bytes written into the file at `path` from `offset` (its end, or room made ahead).
    case write(path: String, offset: Int, bytes: [UInt8])
    /// `fdatasync` of the file at `path` returned: its data is on disk.
    case flush(path: String)
    /// The file at `path` was cut to `length` bytes.
    case truncate(path: String, length: Int)
    case rename(from: String, to: String)
    case remove(path: String)
    /// `fsync` of a folder returned: its entries (new names, renames, removals) are on disk.
    case flushFolder(path: String)
  }

  /// Receives each operation, on the thread that made it. Set only by tests.
  nonisolated(unsafe) public static var recorder: ((Event) -> Void)?

  @inline(__always)
  static func record(_ event: @autoclosure () -> Event) {
    if let recorder { recorder(event()) }
  }
}
