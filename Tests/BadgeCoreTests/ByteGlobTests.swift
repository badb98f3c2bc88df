import BadgeCore
import Testing

/// `ByteGlob`: the one glob matcher, over any bytes (folder and file names) and over channel
/// names through `ChannelPattern`, which must agree with it on every name.
@Suite struct ByteGlobTests {
  @Test func starsQuestionMarksAndLiterals() {
    #expect(ByteGlob("Lists/*").matches(Array("Lists/a/b".utf8)))
    #expect(!ByteGlob("Lists/*").matches(Array("List".utf8)))
    #expect(ByteGlob("a?c").matches(Array("abc".utf8)))
    #expect(!ByteGlob("a?c").matches(Array("ac".utf8)))
    #expect(ByteGlob("*b*b").matches(Array("abxbb".utf8)))
    #expect(!ByteGlob("*b*b").matches(Array("abxba".utf8)))
    #expect(ByteGlob("**").matches([]))
    #expect(!ByteGlob("").matches([0x61]))
    #expect(ByteGlob("INBOX").isLiteral && !ByteGlob("IN?OX").isLiteral)
  }

  /// A name that is not UTF-8 (a folder written by another system) is matched byte for byte.
  @Test func bytesThatAreNotText() {
    let name: [UInt8] = [0x61, 0xFF, 0xFE, 0x62]
    #expect(ByteGlob("a*b").matches(name))
    #expect(ByteGlob("a??b").matches(name))
    #expect(!ByteGlob("a?b").matches(name))
  }

  /// Channel patterns match as byte globs do, on every pattern and name of a small alphabet.
  @Test func channelPatternsAgree() throws {
    let alphabet: [Character] = ["a", "b", "c", "*", "?"]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2000 {
      let pattern = String((0..<Int.random(in: 1...6, using: &generator)).map { _ in alphabet.randomElement()! })
      let name = String((0..<Int.random(in: 1...8, using: &generator)).map { _ in "abc".randomElement()! })
      let channelPattern = try #require(ChannelPattern(pattern))
      let channel = try #require(ChannelName(name))
      #expect(channelPattern.matches(channel) == ByteGlob(pattern).matches(Array(name.utf8)), "\(pattern) \(name)")
    }
  }
}
