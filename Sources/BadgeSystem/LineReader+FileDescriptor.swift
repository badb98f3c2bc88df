import BadgeProtocol

extension LineReader {
  /// Reads once from `fd` into the reader's free space (one `read(2)`).
  ///
  /// - Returns: `.processed(n)` with the bytes read, `.processed(0)` when the reader is full
  ///   (its lines wait to be consumed), `.wouldBlock`, `.endOfFile`, or the read's error.
  public mutating func read(from fd: FileDescriptor) -> Result<IOResult, Errno> {
    var result: Result<IOResult, Errno> = .success(.processed(0))
    _ = read { space in
      result = Result { () throws(Errno) in try fd.read(into: space) }
      if case .success(.processed(let n)) = result { return n }
      return 0
    }
    return result
  }
}
