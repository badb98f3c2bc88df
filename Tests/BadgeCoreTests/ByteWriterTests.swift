import BadgeCore
import Testing

/// The stack writer behind reply lines and journal records: what it writes is appended whole.
@Suite struct ByteWriterTests {
  @Test func piecesAreAppendedInOrderInOneCopy() {
    var out: [UInt8] = Array("> ".utf8)
    out.appendWritten(maxLength: 64) { w in
      w.write("key=")
      w.write(decimal: 1_234_567_890)
      w.write(UInt8(ascii: " "))
      w.write(decimal: -5)  // negative numbers write 0
      w.write(UInt8(ascii: " "))
      w.write(decimal: UInt64.max)
    }
    #expect(String(decoding: out, as: UTF8.self) == "> key=1234567890 0 18446744073709551615")
  }

  /// Every length of number, each with its digits written in pairs and one left over or not.
  @Test(
    arguments: [
      UInt64(0), 9, 10, 99, 100, 101, 999, 1000, 10_000, 12_345, 99_999, 100_000, 1_000_000_007,
      9_999_999_999_999_999_999, 10_000_000_000_000_000_000, UInt64.max, UInt64(Int64.max),
    ] + (0..<20).map { UInt64(7) &* (0..<$0).reduce(1) { acc, _ in acc &* 10 } })
  func decimalsAreWrittenAsDescriptionWritesThem(value: UInt64) {
    var out: [UInt8] = []
    out.appendWritten(maxLength: 20) { $0.write(decimal: value) }
    #expect(String(decoding: out, as: UTF8.self) == String(value))
  }

  /// Constant pieces of up to 16 bytes are copied without `memcpy`, with overlapping loads and
  /// stores: each lands whole, between the bytes around it.
  @Test func constantPiecesOfEveryLengthLandWhole() {
    let pieces: [StaticString] = [
      "", "a", "ab", "abc", "abcd", "abcde", "abcdef", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghij",
      "abcdefghijk", "abcdefghijkl", "abcdefghijklm", "abcdefghijklmn", "abcdefghijklmno", "abcdefghijklmnop",
      "abcdefghijklmnopq", "abcdefghijklmnopqrstuvwxyz",
    ]
    for piece in pieces {
      var out: [UInt8] = []
      out.appendWritten(maxLength: 64) { w in
        w.write(UInt8(ascii: "<"))
        w.write(piece)
        w.write(UInt8(ascii: ">"))
      }
      #expect(String(decoding: out, as: UTF8.self) == "<\(piece)>")
    }
  }

  @Test func aFrameIsFilledInAfterItsPayload() {
    var out: [UInt8] = [0xEE]
    out.appendWritten(maxLength: 16) { w in
      w.write(littleEndian: UInt32(0))
      w.write(littleEndian: UInt16(0x0102))
      w.write(0x03)
      #expect(w.count == 7)
      let payload = w.written(from: 4)
      #expect(Array(payload) == [0x02, 0x01, 0x03])
      w.overwrite(littleEndian: UInt32(payload.count), at: 0)
    }
    #expect(out == [0xEE, 3, 0, 0, 0, 0x02, 0x01, 0x03])
  }
}
