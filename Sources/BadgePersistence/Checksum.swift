import CZlib

/// CRC-32 (zlib's), the checksum of every record.
enum Checksum {
  static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    guard let base = bytes.baseAddress else { return UInt32(CZlib.crc32(0, nil, 0)) }
    return UInt32(CZlib.crc32(0, base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
  }
}
