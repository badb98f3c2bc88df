import BadgeIMAP
import Testing

/// `ImapResponseParser`: each response the session reads, literals, any split of the bytes, and
/// the bounds on lines and literals.
@Suite struct ImapResponseParserTests {
  /// The responses of `text`, fed whole and then a byte at a time (both must agree).
  func parse(_ text: String, _ parser: ImapResponseParser = ImapResponseParser()) -> [ImapResponse] {
    var whole = parser
    let bytes = Array(text.utf8)
    let responses = bytes.withUnsafeBytes { whole.feed($0) }
    var split = parser
    var pieces: [ImapResponse] = []
    for byte in bytes { pieces += [byte].withUnsafeBytes { split.feed($0) } }
    #expect(pieces == responses)
    #expect(whole.failure == split.failure)
    return responses
  }

  @Test func statusResponsesAndTheirCodes() {
    #expect(
      parse("a1 OK [CAPABILITY IMAP4rev1 Idle] Logged in\r\n") == [
        .tagged(tag: "a1", status: .ok, code: .capability(["IMAP4REV1", "IDLE"]), text: "Logged in")
      ])
    #expect(
      parse("a2 NO [AUTHENTICATIONFAILED] Authentication failed.\r\n") == [
        .tagged(tag: "a2", status: .no, code: .authenticationFailed, text: "Authentication failed.")
      ])
    #expect(parse("a3 bad oops\r\n") == [.tagged(tag: "a3", status: .bad, code: nil, text: "oops")])
    #expect(
      parse(
        "* OK [UIDVALIDITY 1733440000] UIDs valid\r\n* OK [UIDNEXT 4] next\r\n* OK [HIGHESTMODSEQ 123456789012] h\r\n"
          + "* OK [NOMODSEQ] none\r\n* NO [ALERT] full\r\n* OK [CLOSED] x\r\n* OK [UNSEEN 2] First unseen.\r\n"
          + "* BYE Logging out\r\n* PREAUTH hi\r\n* OK [broken text\r\n") == [
          .status(.ok, code: .uidValidity(1_733_440_000), text: "UIDs valid"),
          .status(.ok, code: .uidNext(4), text: "next"), .status(.ok, code: .highestModSeq(123_456_789_012), text: "h"),
          .status(.ok, code: .noModSeq, text: "none"), .status(.no, code: .alert, text: "full"),
          .status(.ok, code: .closed, text: "x"), .status(.ok, code: .other("UNSEEN", "2"), text: "First unseen."),
          .status(.bye, code: nil, text: "Logging out"), .status(.preauth, code: nil, text: "hi"),
          .status(.ok, code: nil, text: "[broken text"),
        ])
  }

  @Test func mailboxData() {
    #expect(
      parse("* 3 EXISTS\r\n* 0 RECENT\r\n* 2 EXPUNGE\r\n* CAPABILITY IMAP4rev1 IDLE\r\n* ENABLED QRESYNC\r\n") == [
        .exists(3), .recent(0), .expunge(2), .capability(["IMAP4REV1", "IDLE"]), .enabled(["QRESYNC"]),
      ])
    #expect(
      parse("* FLAGS (\\Answered \\Seen $Forwarded)\r\n+ idling\r\n+\r\n") == [
        .flags(["\\Answered", "\\Seen", "$Forwarded"]), .continuation("idling"), .continuation(""),
      ])
    #expect(
      parse("* SEARCH 1 2 3\r\n* SEARCH\r\n* SEARCH 4 (MODSEQ 917162500)\r\n") == [
        .search([1, 2, 3], modSeq: nil), .search([], modSeq: nil), .search([4], modSeq: 917_162_500),
      ])
    #expect(
      parse("* ESEARCH (TAG \"a4\") UID ALL 1:3,7 MIN 1 MAX 7 COUNT 4\r\n* ESEARCH (TAG \"a5\") UID\r\n") == [
        .esearch(ImapESearch(tag: "a4", uid: true, all: [1, 2, 3, 7], min: 1, max: 7, count: 4)),
        .esearch(ImapESearch(tag: "a5", uid: true)),
      ])
    #expect(
      parse("* VANISHED (EARLIER) 1:3,9\r\n* VANISHED 5\r\n") == [
        .vanished(earlier: true, uids: [1, 2, 3, 9]), .vanished(earlier: false, uids: [5]),
      ])
    #expect(
      parse("* STATUS \"Sent Items\" (MESSAGES 3 UNSEEN 1)\r\n") == [
        .mailboxStatus(name: "Sent Items", items: ["MESSAGES": 3, "UNSEEN": 1])
      ])
  }

  @Test func listNamesQuotedAtomsLiteralsAndModifiedUtf7() {
    #expect(
      parse(
        "* LIST (\\HasNoChildren) \"/\" INBOX\r\n* LIST () NIL \"a \\\"b\\\"\"\r\n* LIST () \"/\" {5}\r\nx/y z\r\n"
          + "* LIST () \"/\" \"&ZeVnLIqe-/&-\"\r\n") == [
          .list(flags: ["\\HasNoChildren"], delimiter: "/", name: "INBOX"),
          .list(flags: [], delimiter: nil, name: "a \"b\""), .list(flags: [], delimiter: "/", name: "x/y z"),
          .list(flags: [], delimiter: "/", name: "日本語/&"),
        ])
  }

  @Test func fetchSkipsWhatItDoesNotNeedLiteralsAndListsIncluded() {
    let text =
      "* 12 FETCH (FLAGS (\\Seen \\Deleted) UID 4827313 MODSEQ (65402)"
      + " BODY[HEADER.FIELDS (SUBJECT FROM)] {22}\r\nSubject: (a) {3}\r\n\r\n"
      + " ENVELOPE (NIL \"x\" ((NIL NIL \"a\" \"b.org\")) NIL) X-GM-LABELS (\"\\\\Inbox\"))\r\n"
    #expect(
      parse(text) == [
        .fetch(sequence: 12, ImapFetch(uid: 4_827_313, flags: ["\\Seen", "\\Deleted"], modSeq: 65402))
      ])
    #expect(ImapFetch(uid: 1, flags: ["\\seen"]).isUnseen == false)
    #expect(ImapFetch(uid: 1, flags: ["\\Recent", "\\Flagged"]).isUnseen == true)
    #expect(ImapFetch(uid: 1).isUnseen == nil)
  }

  @Test func unknownResponsesAreUnknownAndMalformedKnownOnesAViolation() {
    #expect(
      parse("* XFOO (bar\r\n* 3 XTHING\r\n* ID (\"name\" \"Dovecot\")\r\ngarbage\r\n\r\n* \r\n") == [
        .unknown, .unknown, .unknown, .unknown, .unknown, .unknown,
      ])
    var parser = ImapResponseParser()
    let responses = Array("* 1 EXISTS\r\n* 2 FETCH (UID x)\r\n* 3 EXISTS\r\n".utf8).withUnsafeBytes {
      parser.feed($0)
    }
    #expect(responses == [.exists(1)])
    #expect(parser.failure == .violation("FETCH UID"))
    #expect(Array("* 4 EXISTS\r\n".utf8).withUnsafeBytes { parser.feed($0) } == [])
  }

  @Test func deepNestingIsMalformedNotAStackOverflow() {
    let deep = "* 1 FETCH (X " + String(repeating: "(", count: 100_000) + "\r\n"
    #expect(parse(deep).isEmpty)
  }

  @Test func aLiteralOverTheBoundIsRefusedAtItsHeader() {
    var parser = ImapResponseParser()
    let header = Array("* 1 FETCH (UID 1 BODY[] {104857600}\r\n".utf8)
    #expect(header.withUnsafeBytes { parser.feed($0) } == [])
    #expect(parser.failure == .violation("a literal of 104857600 bytes (at most 65536)"))
    #expect(parser.pendingBytes == 0)
    // A literal at the bound is read.
    var small = ImapResponseParser(maxLine: 1 << 20, maxLiteral: 4)
    #expect(parse("* LIST () \"/\" {4}\r\nabcd\r\n", small) == [.list(flags: [], delimiter: "/", name: "abcd")])
    #expect(Array("* LIST () \"/\" {5}\r\n".utf8).withUnsafeBytes { small.feed($0) } == [])
    #expect(small.failure == .violation("a literal of 5 bytes (at most 4)"))
    // Digits past any size are refused too.
    var huge = ImapResponseParser()
    _ = Array("* 1 FETCH (BODY[] {99999999999999999999999}\r\n".utf8).withUnsafeBytes { huge.feed($0) }
    #expect(huge.failure != nil)
  }

  @Test func anEndlessLineIsRefusedOncePastMaxLine() {
    var parser = ImapResponseParser()
    let mebibyte = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
    for _ in 0..<4 {
      #expect(mebibyte.withUnsafeBytes { parser.feed($0) } == [])
      #expect(parser.failure == nil)
    }
    #expect(parser.pendingBytes == 4 << 20)
    _ = mebibyte.withUnsafeBytes { parser.feed($0) }
    #expect(parser.failure == .violation("a response longer than 4194304 bytes"))
    #expect(parser.pendingBytes == 0)
  }

  @Test func sequenceSetsAreBounded() throws {
    #expect(try ImapSequenceSet.numbers("3:1,7,9:9") == [1, 2, 3, 7, 9])
    #expect(throws: ImapFailure.self) { try ImapSequenceSet.numbers("1:*") }
    #expect(throws: ImapFailure.self) { try ImapSequenceSet.numbers("0") }
    #expect(throws: ImapFailure.self) { try ImapSequenceSet.numbers("1,,2") }
    #expect(throws: ImapFailure.violation("a sequence set of more than 10000000 numbers")) {
      try ImapSequenceSet.numbers("1:4294967295")
    }
    #expect(try ImapSequenceSet.numbers("1:5,6:10", limit: 10).count == 10)
    #expect(throws: ImapFailure.self) { try ImapSequenceSet.numbers("1:5,6:11", limit: 10) }
    #expect(ImapSequenceSet.compressed([7, 3, 1, 2, 9, 10, 3]) == "1:3,7,9:10")
    #expect(ImapSequenceSet.compressed([]) == "")
  }
}
