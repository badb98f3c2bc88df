import BadgeSources
import Testing

/// `MaildirName` on the names real writers make: dovecot's (LDA, LMTP, IMAP flag changes),
/// mbsync's (`,U=<uid>`, info in `new/`), and odd ones.
@Suite struct MaildirNameTests {
  static func name(_ text: String) -> MaildirName { MaildirName(Array(text.utf8))! }

  @Test func dovecotsNames() {
    let delivered = Self.name("1764620000.M512345P4242.mail,S=2104,W=2150")
    #expect(delivered.unique == Array("1764620000.M512345P4242.mail,S=2104,W=2150".utf8))
    #expect(delivered.flags == nil)
    #expect(delivered.isUnread(in: .new) && delivered.isUnread(in: .cur))
    let seen = Self.name("1764620000.M512345P4242.mail,S=2104,W=2150:2,S")
    #expect(seen.unique == delivered.unique)
    #expect(seen.flags == Array("S".utf8))
    #expect(!seen.isUnread(in: .cur))
    #expect(seen.isUnread(in: .new))
    let keywords = Self.name("1764620000.M1P2.mail,S=1:2,Fab")
    #expect(keywords.flags == Array("Fab".utf8) && keywords.isUnread(in: .cur))
    #expect(!Self.name("1764620000.M1P2.mail:2,RT").isUnread(in: .cur))
    #expect(Self.name("1764620000.M1P2.mail:2,").isUnread(in: .cur))
  }

  @Test func mbsyncsNames() {
    // mbsync writes info into new/ too; there the message counts whatever its flags.
    let fetched = Self.name("1764620001.4242_1.laptop,U=17:2,")
    #expect(fetched.unique == Array("1764620001.4242_1.laptop,U=17".utf8))
    #expect(fetched.isUnread(in: .new) && fetched.isUnread(in: .cur))
    let seenOnTheServer = Self.name("1764620001.4242_1.laptop,U=17:2,S")
    #expect(seenOnTheServer.isUnread(in: .new))
    #expect(!seenOnTheServer.isUnread(in: .cur))
  }

  @Test func oddNames() {
    #expect(MaildirName([]) == nil)
    #expect(MaildirName(Array(".".utf8)) == nil)
    #expect(MaildirName(Array(".dovecot.index".utf8)) == nil)
    // Not UTF-8, kept as bytes.
    let bytes: [UInt8] = [0x31, 0xFF, 0xFE, 0x3A, 0x32, 0x2C, 0x53]
    let odd = MaildirName(bytes)!
    #expect(odd.unique == [0x31, 0xFF, 0xFE])
    #expect(odd.flags == [0x53])
    #expect(!odd.isUnread(in: .cur))
    // Info that is not 2,: no flags, unread.
    #expect(Self.name("123.abc:1,whatever").flags == nil)
    #expect(Self.name("123.abc:1,whatever").isUnread(in: .cur))
    // Only the first : starts the info.
    #expect(Self.name("a:2,S:x").unique == Array("a".utf8))
    #expect(Self.name("a:2,S:x").flags == Array("S:x".utf8))
  }

  @Test func markedRead() {
    #expect(Self.name("1.M1P1.mail").markedRead(from: .new) == Self.name("1.M1P1.mail:2,S"))
    #expect(Self.name("1.M1P1.mail").markedRead(from: .cur) == Self.name("1.M1P1.mail:2,S"))
    #expect(Self.name("1.M1P1.mail:2,FR").markedRead(from: .cur) == Self.name("1.M1P1.mail:2,FRS"))
    #expect(Self.name("1.M1P1.mail:2,DFa").markedRead(from: .cur) == Self.name("1.M1P1.mail:2,DFSa"))
    #expect(Self.name("1_1.h,U=3:2,").markedRead(from: .new) == Self.name("1_1.h,U=3:2,S"))
    #expect(Self.name("1_1.h,U=3:2,S").markedRead(from: .new) == Self.name("1_1.h,U=3:2,S"))
    #expect(Self.name("9.x:1,old").markedRead(from: .cur) == Self.name("9.x:2,S"))
    #expect(Self.name("1.M1P1.mail:2,S").markedRead(from: .cur) == nil)
    #expect(Self.name("1.M1P1.mail:2,T").markedRead(from: .cur) == nil)
  }
}
