import BadgeCore
import BadgeSources
import Testing

/// `ChannelTemplate`: a folder's channel (odd bytes, levels, long names), what a template can
/// make, and when two overlap; `ByteGlob` over folder and file names.
@Suite struct ChannelTemplateTests {
  static let mail = try! ChannelTemplate("mail:{folder}")

  @Test func aFoldersChannel() throws {
    #expect(Self.mail.channel(forFolder: Array("INBOX".utf8)).description == "mail:INBOX")
    #expect(Self.mail.channel(forFolder: Array("Lists/rust".utf8)).description == "mail:Lists.rust")
    #expect(Self.mail.channel(forFolder: Array("Sent Items".utf8)).description == "mail:Sent_Items")
    // UTF-8 (é is two bytes) and bytes that are no UTF-8 at all: one _ a byte.
    #expect(Self.mail.channel(forFolder: Array("Reçu".utf8)).description == "mail:Re__u")
    #expect(Self.mail.channel(forFolder: [0x41, 0xFF, 0xFE, 0x42]).description == "mail:A__B")
    #expect(try ChannelTemplate("x{folder}.unread").channel(forFolder: Array("a".utf8)).description == "xa.unread")
  }

  @Test func foldersThatMapAlikeShareAChannel() {
    #expect(Self.mail.channel(forFolder: Array("a b".utf8)) == Self.mail.channel(forFolder: Array("a_b".utf8)))
    #expect(Self.mail.channel(forFolder: Array("a/b".utf8)) == Self.mail.channel(forFolder: Array("a.b".utf8)))
  }

  @Test func aLongFolderKeepsItsStartAndAHash() throws {
    let long = Array(String(repeating: "x", count: 80).utf8)
    let channel = Self.mail.channel(forFolder: long).description
    #expect(channel.utf8.count == 64)
    #expect(channel.hasPrefix("mail:" + String(repeating: "x", count: 50) + "-"))
    #expect(channel == "mail:" + String(repeating: "x", count: 50) + "-" + "\(channel.suffix(8))")
    // Past the cut, names differ by their hash only.
    let other = Self.mail.channel(forFolder: long + [0x79])
    #expect(other != Self.mail.channel(forFolder: long))
    #expect(other.description.utf8.count == 64)
    // The hash is FNV-1a 64 folded: fixed across runs and machines.
    #expect(channel.suffix(8) == "1879e320")
    // The suffix stays.
    let suffixed = try ChannelTemplate("m{folder}:new").channel(forFolder: long).description
    #expect(
      suffixed.utf8.count == 64 && suffixed.hasSuffix(":new")
        && suffixed.hasPrefix("m" + String(repeating: "x", count: 50) + "-"))
    // Exactly 64 needs no hash.
    let exact = Self.mail.channel(forFolder: Array(String(repeating: "y", count: 59).utf8)).description
    #expect(exact == "mail:" + String(repeating: "y", count: 59))
  }

  @Test func whatATemplateMakes() throws {
    #expect(Self.mail.couldMake(ChannelName("mail:INBOX")!))
    #expect(Self.mail.couldMake(ChannelName("mail:a:b")!))
    #expect(!Self.mail.couldMake(ChannelName("mail:")!))
    #expect(!Self.mail.couldMake(ChannelName("mail")!))
    #expect(!Self.mail.couldMake(ChannelName("mailbox")!))
    let suffixed = try ChannelTemplate("m.{folder}.u")
    #expect(suffixed.couldMake(ChannelName("m.x.u")!))
    #expect(!suffixed.couldMake(ChannelName("m..u")!))
    #expect(!suffixed.couldMake(ChannelName("m.x.v")!))
  }

  @Test func overlaps() throws {
    #expect(Self.mail.overlaps(try ChannelTemplate("mail:{folder}")))
    #expect(Self.mail.overlaps(try ChannelTemplate("m{folder}")))
    #expect(Self.mail.overlaps(try ChannelTemplate("mail:work.{folder}")))
    #expect(try ChannelTemplate("a{folder}.x").overlaps(try ChannelTemplate("a{folder}")))
    #expect(!Self.mail.overlaps(try ChannelTemplate("work:{folder}")))
    #expect(!(try ChannelTemplate("m{folder}.a")).overlaps(try ChannelTemplate("m{folder}.b")))
    #expect(Self.mail.description == "mail:{folder}")
  }

  @Test func globs() {
    let lists = ByteGlob("Lists/*")
    #expect(lists.matches(Array("Lists/rust".utf8)))
    #expect(lists.matches(Array("Lists/rust/announce".utf8)))
    #expect(!lists.matches(Array("Lists".utf8)))
    #expect(ByteGlob("*").matches([0xFF, 0x00]))
    #expect(ByteGlob("*").matches([]))
    #expect(ByteGlob("a?c").matches([0x61, 0xE9, 0x63]))
    #expect(!ByteGlob("a?c").matches(Array("ac".utf8)))
    #expect(ByteGlob("*.part").matches(Array("x.tar.part".utf8)))
    #expect(!ByteGlob("*.part").matches(Array("x.part.tmp".utf8)))
    #expect(ByteGlob("*a*b*").matches(Array("xxaxxbxx".utf8)))
    #expect(!ByteGlob("*a*b").matches(Array("xxbxxa".utf8)))
    #expect(ByteGlob("INBOX").isLiteral && !lists.isLiteral)
    #expect(ByteGlob.list(" a, b\tc ,") == [ByteGlob("a"), ByteGlob("b"), ByteGlob("c")])
    #expect(ByteGlob.list(" ,, ") == nil)
  }
}
