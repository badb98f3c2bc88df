import BadgeIMAP
import Testing

/// `ImapCommandEncoder`: tags, quoting and literals, mailbox names; the SASL responses;
/// modified UTF-7 both ways.
@Suite struct ImapCommandTests {
  func text(_ command: ImapCommand, _ literals: ImapLiterals = .none) throws -> String {
    var encoder = ImapCommandEncoder()
    return String(decoding: try encoder.encode(command, literals: literals).bytes, as: UTF8.self)
  }

  @Test func tagsCountUp() throws {
    var encoder = ImapCommandEncoder()
    #expect(try encoder.encode(.capability, literals: .none).tag == "a1")
    #expect(try encoder.encode(.noop, literals: .none).tag == "a2")
    #expect(ImapCommandEncoder.done == Array("DONE\r\n".utf8))
  }

  @Test func commands() throws {
    #expect(
      try text(.select(mailbox: "Reçu", qresync: (3, 917_162_500)))
        == "a1 SELECT \"Re&AOc-u\" (QRESYNC (3 917162500))\r\n")
    #expect(try text(.list(reference: "", pattern: "*")) == "a1 LIST \"\" \"*\"\r\n")
    #expect(
      try text(.uidSearch(criteria: "UNSEEN UNDELETED", extended: true))
        == "a1 UID SEARCH RETURN (ALL) UNSEEN UNDELETED\r\n")
    #expect(try text(.markSeen([9, 1, 2, 3])) == "a1 UID STORE 1:3,9 +FLAGS.SILENT (\\Seen)\r\n")
    #expect(try text(.uidFetchFrom(42)) == "a1 UID FETCH 42:* (UID FLAGS)\r\n")
    #expect(try text(.enable(["QRESYNC"])) == "a1 ENABLE QRESYNC\r\n")
  }

  @Test func stringsAreQuotedOrSentAsNonSynchronizingLiterals() throws {
    #expect(try text(.login(username: "a\"b", password: Array("c\\d".utf8))) == "a1 LOGIN \"a\\\"b\" \"c\\\\d\"\r\n")
    #expect(try text(.login(username: "a", password: [])) == "a1 LOGIN \"a\" \"\"\r\n")
    let eightBit = ImapCommand.login(username: "a", password: Array("pé".utf8))
    #expect(try text(eightBit, .plus) == "a1 LOGIN \"a\" {3+}\r\npé\r\n")
    #expect(try text(eightBit, .minus) == "a1 LOGIN \"a\" {3+}\r\npé\r\n")
    #expect(throws: ImapFailure.self) { try text(eightBit) }
    #expect(throws: ImapFailure.self) { try text(.login(username: "a", password: Array("x\r\ny".utf8))) }
    let long = ImapCommand.login(username: "a", password: [0xC3] + [UInt8](repeating: 0x41, count: 4096))
    #expect(throws: ImapFailure.self) { try text(long, .minus) }
    #expect(try text(long, .plus).hasPrefix("a1 LOGIN \"a\" {4097+}\r\n"))
  }

  @Test func saslResponses() {
    #expect(
      ImapSASL.xoauth2(username: "alice", token: Array("good-token".utf8))
        == Array("dXNlcj1hbGljZQFhdXRoPUJlYXJlciBnb29kLXRva2VuAQE=".utf8))
    #expect(
      ImapSASL.oauthbearer(username: "alice", host: "127.0.0.1", port: 10995, token: Array("good-token".utf8))
        == Array("bixhPWFsaWNlLAFob3N0PTEyNy4wLjAuMQFwb3J0PTEwOTk1AWF1dGg9QmVhcmVyIGdvb2QtdG9rZW4BAQ==".utf8))
    // "n,a=a=2Cb=3Dc,\x01host=h\x01port=1\x01auth=Bearer t\x01\x01"
    #expect(
      ImapSASL.oauthbearer(username: "a,b=c", host: "h", port: 1, token: Array("t".utf8))
        == Array("bixhPWE9MkNiPTNEYywBaG9zdD1oAXBvcnQ9MQFhdXRoPUJlYXJlciB0AQE=".utf8))
  }

  @Test func modifiedUtf7() {
    for (name, wire) in [
      ("INBOX", "INBOX"), ("Reçu", "Re&AOc-u"), ("日本語/&", "&ZeVnLIqe-/&-"), ("a~b", "a~b"), ("😀", "&2D3eAA-"),
    ] {
      #expect(String(decoding: ModifiedUTF7.encode(name), as: UTF8.self) == wire)
      #expect(ModifiedUTF7.decode(Array(wire.utf8)) == name)
    }
    // Not modified UTF-7: read as it is.
    #expect(ModifiedUTF7.decode(Array("a&b".utf8)) == "a&b")
    #expect(ModifiedUTF7.decode(Array("Reçu".utf8)) == "Reçu")
  }
}
