import BadgeCore
import TestSupport
import Testing

@Suite struct ChannelNameTests {
  @Test(arguments: [
    "a", "Z", "0", "mail", "Mail", "9lives", "app:mail", "a.b_c-d:e", "x.", "x-", "x_", "x:",
    "0123456789", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
  ])
  func acceptsNamesFromTheAllowedBytes(_ text: String) throws {
    let channel = try #require(ChannelName(text))
    #expect(channel.description == text)
    #expect(channel.count == text.utf8.count)
  }

  @Test func lengthIsOneToSixtyFourBytes() {
    #expect(ChannelName.maxLength == 64)
    #expect(ChannelName("") == nil)
    #expect(ChannelName("a")?.count == 1)
    #expect(ChannelName(String(repeating: "a", count: 63))?.count == 63)
    #expect(ChannelName(String(repeating: "a", count: 64))?.count == 64)
    #expect(ChannelName(String(repeating: "a", count: 65)) == nil)
    #expect(ChannelName(String(repeating: "a", count: 1000)) == nil)
  }

  @Test func everyByteAfterTheFirstFollowsTheSpec() {
    for byte in UInt8.min...UInt8.max {
      let bytes: [UInt8] = [UInt8(ascii: "a"), byte, UInt8(ascii: "z")]
      let accepted = bytes.withUnsafeBytes { ChannelName(bytes: $0) } != nil
      #expect(accepted == specNameBytes.contains(byte), "byte 0x\(String(byte, radix: 16))")
      #expect(ChannelName.isNameByte(byte) == specNameBytes.contains(byte))
    }
  }

  @Test func everyFirstByteFollowsTheSpec() {
    for byte in UInt8.min...UInt8.max {
      let bytes: [UInt8] = [byte, UInt8(ascii: "a")]
      let accepted = bytes.withUnsafeBytes { ChannelName(bytes: $0) } != nil
      #expect(accepted == specFirstBytes.contains(byte), "first byte 0x\(String(byte, radix: 16))")
      let alone = [byte].withUnsafeBytes { ChannelName(bytes: $0) } != nil
      #expect(alone == specFirstBytes.contains(byte), "single byte 0x\(String(byte, radix: 16))")
    }
  }

  @Test(arguments: [
    ".mail", "_mail", "-mail", ":mail", " mail", "mail box", "mail\t", "mail/x", "mail*", "mail?", "é", "maïl",
    "mail\n", "mail\0",
  ])
  func refusesForbiddenNames(_ text: String) {
    #expect(ChannelName(text) == nil)
  }

  @Test func isValidAgreesWithTheInitializer() {
    for text in ["a", ".a", String(repeating: "b", count: 64), String(repeating: "b", count: 65), "", "a b"] {
      let valid = Array(text.utf8).withUnsafeBytes { ChannelName.isValid($0) }
      #expect(valid == (ChannelName(text) != nil), "'\(text)'")
    }
  }

  @Test func substringsAndBytesMakeTheSameName() throws {
    let line = "INCR mail 3"
    let word = line.split(separator: " ")[1]
    let fromSubstring = try #require(ChannelName(word))
    let fromBytes = try #require(Array("mail".utf8).withUnsafeBytes { ChannelName(bytes: $0) })
    #expect(fromSubstring == fromBytes)
    #expect(fromSubstring == name("mail"))
    #expect(fromBytes.withBytes { Array($0) } == Array("mail".utf8))
  }

  @Test func equalityIsByteForByte() {
    #expect(name("mail") == name("mail"))
    #expect(name("mail") != name("Mail"))
    #expect(name("mail") != name("mail2"))
    #expect(name("mail") != name("mai"))
    let long = String(repeating: "x", count: 63)
    #expect(name(long + "a") != name(long + "b"))
    #expect(name(long + "a") == name(long + "a"))
  }

  @Test func equalNamesHashAlike() {
    var set: Set<ChannelName> = [name("mail"), name("chat"), name(String(repeating: "z", count: 64))]
    #expect(set.contains(name("mail")))
    #expect(!set.contains(name("mail:work")))
    set.insert(name("mail"))
    #expect(set.count == 3)
    var hasher1 = Hasher()
    var hasher2 = Hasher()
    name("app:x").hash(into: &hasher1)
    Array("app:x".utf8).withUnsafeBytes { ChannelName(bytes: $0)! }.hash(into: &hasher2)
    #expect(hasher1.finalize() == hasher2.finalize())
  }

  @Test func orderIsByBytesWithPrefixesFirst() {
    let sorted = ["b", "aa", "a", "B", "a0", "A", "9", "a:", "a."].map(name).sorted()
    #expect(sorted.map(\.description) == ["9", "A", "B", "a", "a.", "a0", "a:", "aa", "b"])
    #expect(name("a") < name("aa"))
    #expect(!(name("aa") < name("a")))
    #expect(!(name("a") < name("a")))
  }

  /// The order compares words; it must be the bytes' order for names of every length, with
  /// differences in every word and names that begin others across word boundaries.
  @Test func orderByWordsIsTheOrderOfTheBytes() {
    var random = SplitMix(seed: 5)
    let alphabet = Array("09AZaz.:_-".utf8)
    let names = (0..<400).map { _ in
      String(
        decoding: (0..<Int.random(in: 1...64, using: &random)).map { _ in alphabet.randomElement(using: &random)! },
        as: UTF8.self)
    }.map { $0.first!.isLetter || $0.first!.isNumber ? $0 : "a" + $0.dropFirst() }
    let cut = names.map { String($0.prefix(max(1, $0.count / 2))) } + names.map { $0 + "a" }.filter { $0.count <= 64 }
    let all = (names + cut).map(name)
    for a in all.prefix(120) {
      for b in all {
        let bytes = Array(a.description.utf8).lexicographicallyPrecedes(Array(b.description.utf8))
        #expect((a < b) == bytes, "\(a) < \(b)")
      }
    }
  }
}
