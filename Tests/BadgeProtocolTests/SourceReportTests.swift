import BadgeProtocol
import Testing

@testable import BadgeCore

/// A source's report, `SET <channel> <n> new=<k> [unseen=<u>]`: read, written back, and refused.
@Suite struct SourceReportTests {
  @Test(arguments: [
    ("SET mail 5 new=1", Request.write(name("mail"), .report(count: 5, arrived: 1, unseen: nil))),
    ("SET mail 5 new=1 unseen=1", .write(name("mail"), .report(count: 5, arrived: 1, unseen: 1))),
    ("set mail 5 unseen=2 new=0", .write(name("mail"), .report(count: 5, arrived: 0, unseen: 2))),
    ("SET mail 0 new=0 id=src-7f3a91c2:12", .write(name("mail"), .report(count: 0, arrived: 0, unseen: nil))),
    ("SET mail 5", .write(name("mail"), .set(5))),
  ])
  func aReportIsReadWithItsArrivals(line: String, request: Request) throws {
    let parsed = try #require(try parseLine(line)?.get())
    #expect(parsed.request == request)
  }

  @Test func aReportIsWrittenInItsCanonicalForm() {
    let request = Request.write(name("mail"), .report(count: 5, arrived: 1, unseen: 1))
    #expect(RequestEncoder.line(request, id: "src-7f3a91c2:12") == "SET mail 5 new=1 unseen=1 id=src-7f3a91c2:12")
    #expect(RequestEncoder.line(.write(name("mail"), .report(count: 5, arrived: 0, unseen: nil))) == "SET mail 5 new=0")
    #expect(request.command.usage == "SET <channel> <n>")
  }

  @Test(arguments: [
    (
      "SET mail 5 unseen=1", ProtocolError.Code.badArguments,
      "unseen= goes with new=, a source's report; usage: SET <channel> <n>"
    ),
    ("SET mail 5 new=1 new=2", .badArguments, "Unexpected argument 'new=2'; usage: SET <channel> <n>"),
    ("SET mail 5 new=x", .badNumber, "Invalid number 'x'; expected a whole number from 0 to 2147483647"),
    ("SET mail 5 new=2147483648", .outOfRange, "'2147483648' is over the largest count, 2147483647"),
    ("SET mail 5 old=1", .badArguments, "Unexpected argument 'old=1'; usage: SET <channel> <n>"),
  ])
  func aBadReportIsRefused(line: String, code: ProtocolError.Code, message: String) {
    #expect(parseLine(line) == .failure(ProtocolError(code, message)))
  }
}

/// The sources program's requests and lines: `SOURCES`, `SOURCE … claim|release|status`, the
/// listing, `CLEARED` and `RELOADED`, and state lines with `source=`.
@Suite struct SourcesLinesTests {
  @Test(arguments: [
    ("SOURCES", Request.sources(.query)),
    ("sources attach", .sources(.attach)),
    ("SOURCES config ok", .sources(.config(error: nil))),
    ("SOURCES config error=a.conf:3: Unknown key 'x'  ", .sources(.config(error: "a.conf:3: Unknown key 'x'"))),
    ("SOURCE mail claim mail on_clear=seen", .source("mail", .claim(name("mail"), markRead: false))),
    ("SOURCE mail claim mail:INBOX on_clear=mark-read", .source("mail", .claim(name("mail:INBOX"), markRead: true))),
    ("SOURCE mail release mail", .source("mail", .release(name("mail")))),
    (
      "SOURCE mail status kind=maildir state=ok channels=1 count=5 changed=1764620000123",
      .source(
        "mail",
        .status(
          SourceStatus(name: "mail", kind: "maildir", state: .ok, channels: 1, count: 5, changed: 1_764_620_000_123)))
    ),
  ])
  func sourcesRequestsAreRead(line: String, request: Request) throws {
    #expect(try parseLine(line)?.get().request == request)
  }

  @Test(arguments: [
    ("SOURCES detach", ProtocolError.Code.badArguments, "Unexpected argument 'detach'"),
    ("SOURCES config", .badArguments, "Missing ok or error=<text>"),
    ("SOURCE m/x claim mail on_clear=seen", .badName, "Invalid source name 'm/x'"),
    ("SOURCE mail claim mail", .badArguments, "Missing on_clear=<seen|mark-read>"),
    ("SOURCE mail claim mail on_clear=delete", .badArguments, "Invalid on_clear 'delete'; expected seen or mark-read"),
    ("SOURCE mail status kind=maildir state=odd channels=1 count=1", .badArguments, "Invalid state 'odd'"),
    ("SOURCE mail status kind=maildir state=ok count=1", .badArguments, "Missing channels="),
    ("SOURCE mail status kind=maildir kind=x state=ok", .badArguments, "'kind=' is given twice"),
    ("SOURCE mail forget mail", .badArguments, "Unexpected argument 'forget'"),
  ])
  func badSourcesRequestsAreRefused(line: String, code: ProtocolError.Code, start: String) throws {
    guard case .failure(let error)? = parseLine(line) else {
      Issue.record("'\(line)' was read")
      return
    }
    #expect(error.code == code)
    #expect(error.message.hasPrefix(start), "\(error.message)")
  }

  @Test func theListingAndItsOverviewAreRead() {
    let line = "SOURCE lists kind=notmuch state=retrying channels=2 count=7 retry_at=1764620012000 error=locked  db"
    let status = SourceStatus(listing: line)
    #expect(status?.name == "lists" && status?.state == .retrying && status?.retryAt == 1_764_620_012_000)
    #expect(status?.error == "locked  db" && status?.listing == line)
    #expect(SourceStatus(listing: "SOURCES attached=0 sources=0") == nil)
    let overview = SourcesOverview("SOURCES attached=1 sources=2 config_error=a.conf:1: bad  key")
    #expect(overview == SourcesOverview(attached: true, sources: 2, configError: "a.conf:1: bad  key"))
    #expect(overview?.line == "SOURCES attached=1 sources=2 config_error=a.conf:1: bad  key")
    #expect(SourcesOverview("SOURCES attached=0 sources=0") == SourcesOverview(attached: false, sources: 0))
  }

  @Test func pushesAndSourceFieldsAreDecoded() {
    #expect(ReplyLine("CLEARED mail upto=141") == .cleared(channel: name("mail"), upTo: 141))
    #expect(ReplyLine("CLEARED mail upto=-1") == .data("CLEARED mail upto=-1"))
    #expect(ReplyLine("RELOADED") == .reloaded)
    let line = "STATE mail count=5 label=◦ dot=0 pulse=0 muted=0 seq=9 badge=unseen dnd=off unseen=0 total=141"
    guard case .state(let fresh) = ReplyLine(line + " source=mail stale=0"),
      case .state(let stale) = ReplyLine(line + " source=mail stale=1 since=1764620000"),
      case .state(let plain) = ReplyLine(line)
    else {
      Issue.record("a state line was not read")
      return
    }
    #expect(fresh.source == SourceMark(name: "mail") && fresh.mirror == nil)
    #expect(stale.source == SourceMark(name: "mail", stale: true, since: 1_764_620_000))
    #expect(plain.source == nil)
  }
}
