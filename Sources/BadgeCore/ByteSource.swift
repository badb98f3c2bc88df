/// The outcome of a non-blocking read or write.
public enum IOResult: Equatable, Sendable {
  /// This many bytes moved (more than 0).
  case processed(Int)
  /// Nothing moved now; wait for readiness.
  case wouldBlock
  /// The peer closed its end (reads only).
  case endOfFile
}

/// Something bytes are read from without blocking: BadgeSystem's `FileDescriptor` is one.
///
/// Readers above the operating-system module (the protocol's `LineReader`) read through it, so
/// they need not know what a descriptor is, and the system module need not know them.
public protocol ByteSource {
  associatedtype ReadError: Error
  /// Reads into `buffer` once: `.processed(n)`, `.wouldBlock` or `.endOfFile` (`.processed(0)`
  /// only for an empty buffer).
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(ReadError) -> IOResult
}
