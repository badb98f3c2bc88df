/// When an acknowledged change reaches the disk, like Redis's `appendfsync`.
public enum SyncMode: String, Sendable, CaseIterable {
  /// The reply to a change is sent only after its journal record is flushed to disk
  /// (`fdatasync`). One flush per loop turn covers every change of that turn (group commit).
  /// Nothing acknowledged is lost, even in a power cut.
  case always
  /// Records are written at once and flushed at most once a second: a daemon crash loses
  /// nothing, a power cut at most about a second of acknowledged changes.
  case everysec
  /// Records are written at once and never flushed by badged: a daemon crash loses nothing, a
  /// power cut what the kernel had not yet written back (usually up to 30 seconds).
  case never
}
