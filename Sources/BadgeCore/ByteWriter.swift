/// Writes a line's bytes into a buffer on the stack, to be appended to an output array in one
/// copy (`[UInt8].appendWritten`): the reply and event encoders write some twenty pieces per
/// line, and appending each to the array checked its uniqueness and capacity every time.
///
/// Every write checks that it fits, so a line longer than the buffer stops the program instead
/// of writing past it.
public struct ByteWriter {
  @usableFromInline let start: UnsafeMutableRawPointer
  @usableFromInline var cursor: UnsafeMutableRawPointer
  @usableFromInline let end: UnsafeMutableRawPointer

  /// A writer into `buffer` (`[UInt8].appendWritten` makes one on the stack).
  @inlinable public init(_ buffer: UnsafeMutableRawBufferPointer) {
    start = buffer.baseAddress!
    cursor = start
    end = cursor + buffer.count
  }

  /// The number of bytes written so far.
  @inlinable public var count: Int { cursor - start }

  /// The bytes written from `offset` on (a record's payload, for its checksum).
  @inlinable public func written(from offset: Int) -> UnsafeRawBufferPointer {
    precondition(offset >= 0 && offset <= count)
    return UnsafeRawBufferPointer(start: start + offset, count: count - offset)
  }

  /// Puts `value` over bytes written before, at `offset` (a frame's length, filled in last).
  @inlinable public func overwrite<T: FixedWidthInteger>(littleEndian value: T, at offset: Int) {
    precondition(offset >= 0 && offset + MemoryLayout<T>.size <= count)
    (start + offset).storeBytes(of: value.littleEndian, as: T.self)
  }

  /// `value`'s bytes, little-endian.
  @inlinable @inline(__always)
  public mutating func write<T: FixedWidthInteger>(littleEndian value: T) {
    reserve(MemoryLayout<T>.size)
    cursor.storeBytes(of: value.littleEndian, as: T.self)
    cursor += MemoryLayout<T>.size
  }

  @inlinable @inline(__always)
  mutating func reserve(_ count: Int) {
    precondition(end - cursor >= count, "a line longer than its writer's buffer")
  }

  @inlinable @inline(__always)
  public mutating func write(_ byte: UInt8) {
    reserve(1)
    cursor.storeBytes(of: byte, as: UInt8.self)
    cursor += 1
  }

  @inlinable @inline(__always)
  public mutating func write(_ bytes: UnsafeRawBufferPointer) {
    reserve(bytes.count)
    if let base = bytes.baseAddress { cursor.copyMemory(from: base, byteCount: bytes.count) }
    cursor += bytes.count
  }

  /// Copies up to 16 bytes with two loads and two stores of the widest size that fits, which
  /// may overlap (the first bytes and the last ones), instead of a call to `memcpy`: for a
  /// line's constant pieces (` count=`), whose length is known where they are written, this
  /// is a few instructions each.
  @inlinable @inline(__always)
  static func copySmall(from source: UnsafeRawPointer, count: Int, to target: UnsafeMutableRawPointer) {
    if count >= 8 {
      let head = source.loadUnaligned(as: UInt64.self)
      let tail = source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
      target.storeBytes(of: head, as: UInt64.self)
      target.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
    } else if count >= 4 {
      let head = source.loadUnaligned(as: UInt32.self)
      let tail = source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
      target.storeBytes(of: head, as: UInt32.self)
      target.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
    } else if count >= 2 {
      let head = source.loadUnaligned(as: UInt16.self)
      let tail = source.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)
      target.storeBytes(of: head, as: UInt16.self)
      target.storeBytes(of: tail, toByteOffset: count - 2, as: UInt16.self)
    } else if count == 1 {
      target.storeBytes(of: source.load(as: UInt8.self), as: UInt8.self)
    }
  }

  /// A constant piece of a line (` count=`): its bytes are in the binary, nothing is allocated.
  @inlinable @inline(__always)
  public mutating func write(_ text: StaticString) {
    let count = text.utf8CodeUnitCount
    guard count <= 16 else { return write(UnsafeRawBufferPointer(start: text.utf8Start, count: count)) }
    reserve(count)
    ByteWriter.copySmall(from: text.utf8Start, count: count, to: cursor)
    cursor += count
  }

  /// The decimal digits of `value` (`DecimalParser` reads them back): the digits are counted
  /// by comparison and written two at a time from `digitPairs`, half the divisions of one at a
  /// time (a state line has five numbers).
  @inlinable
  public mutating func write(decimal value: UInt64) {
    if value < 10 {
      write(UInt8(truncatingIfNeeded: value) &+ 0x30)
      return
    }
    var digits = 2
    var limit: UInt64 = 100
    while digits < 20 && value >= limit {
      digits += 1
      limit &*= 10
    }
    reserve(digits)
    let pairs = UnsafeRawPointer(ByteWriter.digitPairs.utf8Start)
    var v = value
    var i = digits
    while v >= 100 {
      let pair = Int(truncatingIfNeeded: v % 100)
      v /= 100
      i -= 2
      (cursor + i).storeBytes(of: pairs.loadUnaligned(fromByteOffset: 2 * pair, as: UInt16.self), as: UInt16.self)
    }
    if v >= 10 {
      cursor.storeBytes(
        of: pairs.loadUnaligned(fromByteOffset: 2 * Int(truncatingIfNeeded: v), as: UInt16.self), as: UInt16.self)
    } else {
      cursor.storeBytes(of: UInt8(truncatingIfNeeded: v) &+ 0x30, as: UInt8.self)
    }
    cursor += digits
  }

  /// "00" to "99": the two digits of every number below 100.
  @usableFromInline static let digitPairs: StaticString =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

  /// The decimal digits of a non-negative `value` (a negative one writes 0).
  @inlinable @inline(__always)
  public mutating func write(decimal value: Int) {
    write(decimal: UInt64(max(0, value)))
  }
}

extension Array where Element == UInt8 {
  /// Appends what `body` writes, at most `maxLength` bytes, in one copy.
  @inlinable @inline(__always)
  public mutating func appendWritten(maxLength: Int, _ body: (inout ByteWriter) -> Void) {
    withUnsafeTemporaryAllocation(byteCount: maxLength, alignment: 1) { buffer in
      var writer = ByteWriter(buffer)
      body(&writer)
      append(contentsOf: UnsafeRawBufferPointer(start: buffer.baseAddress, count: writer.cursor - buffer.baseAddress!))
    }
  }
}
