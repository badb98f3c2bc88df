/// Base64 (RFC 4648) for SASL's responses, and the variant of modified UTF-7 (`,` for `/`, no
/// padding) for mailbox names.
enum ImapBase64 {
  static let standard = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
  static let mailbox = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+,".utf8)

  static func encode(_ bytes: [UInt8], alphabet: [UInt8] = standard, padded: Bool = true) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index < bytes.count {
      let chunk = bytes[index..<min(index + 3, bytes.count)]
      var word = 0
      for (offset, byte) in chunk.enumerated() { word |= Int(byte) << (16 - 8 * offset) }
      for sextet in 0...chunk.count { out.append(alphabet[(word >> (18 - 6 * sextet)) & 63]) }
      if padded { out.append(contentsOf: repeatElement(UInt8(ascii: "="), count: 3 - chunk.count)) }
      index += 3
    }
    return out
  }

  /// Bytes of unpadded base64 in `alphabet`; nil for any other byte or a stray bit.
  static func decode(_ text: ArraySlice<UInt8>, alphabet: [UInt8] = mailbox) -> [UInt8]? {
    var out: [UInt8] = []
    var word = 0
    var bits = 0
    for byte in text {
      guard let value = alphabet.firstIndex(of: byte) else { return nil }
      word = (word << 6 | value) & 0xFFFF
      bits += 6
      if bits >= 8 {
        bits -= 8
        out.append(UInt8(truncatingIfNeeded: word >> bits))
      }
    }
    guard word & ((1 << bits) - 1) == 0 else { return nil }
    return out
  }
}

/// Mailbox names on the wire (RFC 3501 5.1.3): printable ASCII as itself, `&` as `&-`, other
/// characters as `&` base64 of UTF-16 `-`.
public enum ModifiedUTF7 {
  /// The UTF-8 name; bytes that are no modified UTF-7 are read as UTF-8 as they are.
  public static func decode(_ bytes: [UInt8]) -> String {
    var units: [UInt16] = []
    var index = 0
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "&") else {
        units.append(UInt16(bytes[index]))
        index += 1
        continue
      }
      guard let end = bytes[index...].firstIndex(of: UInt8(ascii: "-")) else {
        return String(decoding: bytes, as: UTF8.self)
      }
      if end == index + 1 {
        units.append(0x26)
      } else {
        guard let decoded = ImapBase64.decode(bytes[index + 1..<end]), decoded.count % 2 == 0 else {
          return String(decoding: bytes, as: UTF8.self)
        }
        for pair in stride(from: 0, to: decoded.count, by: 2) {
          units.append(UInt16(decoded[pair]) << 8 | UInt16(decoded[pair + 1]))
        }
      }
      index = end + 1
    }
    guard bytes.allSatisfy({ $0 < 0x80 }) else { return String(decoding: bytes, as: UTF8.self) }
    return String(decoding: units, as: UTF16.self)
  }

  public static func encode(_ name: String) -> [UInt8] {
    var out: [UInt8] = []
    var run: [UInt8] = []
    func flush() {
      guard !run.isEmpty else { return }
      out.append(UInt8(ascii: "&"))
      out.append(contentsOf: ImapBase64.encode(run, alphabet: ImapBase64.mailbox, padded: false))
      out.append(UInt8(ascii: "-"))
      run = []
    }
    for unit in name.utf16 {
      if unit >= 0x20, unit <= 0x7E {
        flush()
        out.append(UInt8(unit))
        if unit == 0x26 { out.append(UInt8(ascii: "-")) }
      } else {
        run.append(UInt8(unit >> 8))
        run.append(UInt8(unit & 0xFF))
      }
    }
    flush()
    return out
  }
}
