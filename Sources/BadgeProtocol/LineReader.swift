/// Splits a byte stream into lines ending in LF (a CR before the LF is dropped), with a limit
/// on the length of a line.
///
/// Bytes are read straight into the reader's storage (`read(into:)`) and lines are handed out
/// as views of it, so framing copies nothing. A line longer than `maxLineLength` is reported
/// once as `.tooLong` as soon as it is known, and the rest of it, up to its LF, is discarded.
public struct LineReader {
  /// One framed item.
  public enum Frame {
    /// A line without its terminator; valid only during the callback.
    case line(UnsafeRawBufferPointer)
    /// A line went over the limit; its bytes were discarded.
    case tooLong
  }

  /// The longest line accepted, in bytes, not counting the CR LF or LF that ends it.
  public let maxLineLength: Int
  private var storage: [UInt8]
  private let maxCapacity: Int
  /// Unconsumed bytes are `storage[head..<tail]`.
  private var head = 0
  private var tail = 0
  /// Bytes before `head + scanned` are known to hold no LF.
  private var scanned = 0
  /// Inside an over-long line whose `.tooLong` was already reported.
  private var discarding = false

  /// - Parameters:
  ///   - maxLineLength: the longest line accepted (4096 in protocol v1).
  ///   - capacity: how many unconsumed bytes the reader may hold; more than one line, so that
  ///     pipelined requests are read in few system calls.
  ///   - initialCapacity: the buffer it starts with; it doubles (up to `capacity`) each time a
  ///     read finds it full. The daemon starts its connections small: a watcher sends one short
  ///     line and then only reads, so a full-sized buffer would stay unused.
  public init(maxLineLength: Int = 4096, capacity: Int = 65536, initialCapacity: Int = 4096) {
    precondition(capacity > maxLineLength + 2, "the buffer must hold a whole line")
    precondition(initialCapacity > 0, "the buffer must hold a byte")
    self.maxLineLength = maxLineLength
    self.maxCapacity = capacity
    self.storage = [UInt8](repeating: 0, count: min(capacity, initialCapacity))
  }

  /// The number of bytes read but not yet framed.
  public var bufferedCount: Int { tail - head }

  /// The bytes of buffer the reader holds (freed with it).
  public var storageCapacity: Int { storage.count }

  /// Whether part of a line was read and its end was not: bytes wait for their LF, or the rest
  /// of an over-long line is being discarded. (With every complete line consumed, this is a
  /// line the peer began and has not finished.)
  public var isInsideLine: Bool { tail > head || discarding }

  /// Lets `body` write up to the free space of the buffer (a `read(2)`), and keeps the count
  /// of bytes it returns. Returns 0 without calling `body` when the buffer is full, which only
  /// happens while lines are left unconsumed (the caller is applying back-pressure).
  public mutating func read(into body: (UnsafeMutableRawBufferPointer) -> Int) -> Int {
    makeRoom()
    guard tail < storage.count else { return 0 }
    let n = storage.withUnsafeMutableBytes { raw in
      body(UnsafeMutableRawBufferPointer(rebasing: raw[tail...]))
    }
    if n > 0 { tail += n }
    return n
  }

  /// Copies `bytes` in; for clients and tests that already hold the data.
  public mutating func append(_ bytes: some Collection<UInt8>) {
    var rest = bytes[...]
    while !rest.isEmpty {
      let n = read { space in
        let n = min(space.count, rest.count)
        space.copyBytes(from: rest.prefix(n))
        return n
      }
      precondition(n > 0, "append needs the caller to consume lines between appends")
      rest = rest.dropFirst(n)
    }
  }

  /// Calls `body` with each complete frame in order until it returns `false` (leaving the
  /// remaining lines for later) or no complete line is left.
  public mutating func forEachFrame(_ body: (Frame) -> Bool) {
    while let frame = nextFrameBounds() {
      let keepGoing: Bool
      switch frame {
      case .tooLong:
        keepGoing = body(.tooLong)
      case .line(let start, let end, let next):
        keepGoing = storage.withUnsafeBytes { raw in
          body(.line(UnsafeRawBufferPointer(rebasing: raw[start..<end])))
        }
        head = next
        scanned = 0
      }
      if !keepGoing { break }
    }
    if head == tail {
      head = 0
      tail = 0
      scanned = 0
    }
  }

  private enum Bounds {
    case line(start: Int, end: Int, next: Int)
    case tooLong
  }

  /// Finds the next frame and consumes discarded bytes; lines are consumed by the caller after
  /// their callback, so the view stays valid during it.
  private mutating func nextFrameBounds() -> Bounds? {
    while true {
      let found: Int? = storage.withUnsafeBytes { raw in
        var i = head + scanned
        while i < tail {
          if raw[i] == 0x0A { return i }
          i += 1
        }
        return nil
      }
      if discarding {
        if let lf = found {
          discarding = false
          head = lf + 1
          scanned = 0
          continue
        }
        head = tail  // drop everything seen so far of the over-long line
        scanned = 0
        return nil
      }
      if let lf = found {
        var end = lf
        if end > head, storage[end - 1] == 0x0D { end -= 1 }
        if end - head > maxLineLength {
          head = lf + 1
          scanned = 0
          return .tooLong
        }
        return .line(start: head, end: end, next: lf + 1)
      }
      scanned = tail - head
      // No LF yet: past the limit plus room for a CR, the line is too long whatever follows.
      if tail - head > maxLineLength + 1 {
        discarding = true
        head = tail
        scanned = 0
        return .tooLong
      }
      return nil
    }
  }

  /// Moves unconsumed bytes to the front, and grows the storage up to its capacity when a
  /// partial line fills it.
  private mutating func makeRoom() {
    if head > 0 && (tail == storage.count || head >= storage.count / 2) {
      let n = tail - head
      storage.withUnsafeMutableBytes { raw in
        raw.baseAddress!.copyMemory(from: raw.baseAddress! + head, byteCount: n)
      }
      head = 0
      tail = n
    }
    if tail == storage.count && storage.count < maxCapacity {
      storage.append(contentsOf: repeatElement(0, count: min(storage.count, maxCapacity - storage.count)))
    }
  }
}
