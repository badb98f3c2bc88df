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
