import BadgeCore

extension LineReader {
  /// Reads once from `source` (a `FileDescriptor`: one `read(2)`) into the reader's free space.
  ///
  /// - Returns: `.processed(n)` with the bytes read, `.processed(0)` when the reader is full
  ///   (its lines wait to be consumed), `.wouldBlock`, `.endOfFile`, or the read's error.
  @inlinable
  public mutating func read<Source: ByteSource>(from source: Source) -> Result<IOResult, Source.ReadError> {
    readOnce(from: source).result
  }

  /// Reads once from `source`, like `read(from:)`, and tells whether the read filled all the
  /// space it was given. When it did not, the socket held no more at that instant: reading
  /// again would only return `EAGAIN`, so a caller that waits for readiness can stop there.
  @inlinable
  public mutating func readOnce<Source: ByteSource>(
    from source: Source
  ) -> (result: Result<IOResult, Source.ReadError>, filled: Bool) {
    var result: Result<IOResult, Source.ReadError> = .success(.processed(0))
    var filled = true
    _ = read { space in
      result = Result { () throws(Source.ReadError) in try source.read(into: space) }
      if case .success(.processed(let n)) = result {
        filled = n == space.count
        return n
      }
      return 0
    }
    return (result, filled)
  }
}
