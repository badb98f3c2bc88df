import BadgeProtocol

extension LineReader {
  /// Reads once from `fd` into the reader's free space (one `read(2)`).
  ///
  /// - Returns: `.processed(n)` with the bytes read, `.processed(0)` when the reader is full
  ///   (its lines wait to be consumed), `.wouldBlock`, `.endOfFile`, or the read's error.
  public mutating func read(from fd: FileDescriptor) -> Result<IOResult, Errno> {
    readOnce(from: fd).result
  }

  /// Reads once from `fd`, like `read(from:)`, and tells whether the read filled all the space
  /// it was given. When it did not, the socket held no more at that instant: reading again
  /// would only return `EAGAIN`, so a caller that waits for readiness can stop there.
  public mutating func readOnce(from fd: FileDescriptor) -> (result: Result<IOResult, Errno>, filled: Bool) {
    var result: Result<IOResult, Errno> = .success(.processed(0))
    var filled = true
    _ = read { space in
      result = Result { () throws(Errno) in try fd.read(into: space) }
      if case .success(.processed(let n)) = result {
        filled = n == space.count
        return n
      }
      return 0
    }
    return (result, filled)
  }
}
