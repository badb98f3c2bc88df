import BadgeCore
import BadgeProtocol
import Testing

@testable import BadgeSources

/// The core's requests are the protocol's own: each is written by the daemon's encoder as the
/// line PROTOCOL.md gives, and read back by the daemon's parser as the same request.
@Suite struct SourcesDaemonRequestTests {
  static let mail = ChannelName("mail")!

  @Test(arguments: [
    (SourcesDaemonRequest.attach, "SOURCES attach"),
    (.claim(source: "mail", channel: mail, onClear: .seen), "SOURCE mail claim mail on_clear=seen"),
    (.claim(source: "mail", channel: mail, onClear: .markRead), "SOURCE mail claim mail on_clear=mark-read"),
    (.release(source: "mail", channel: mail), "SOURCE mail release mail"),
    (SourcesDaemonRequest(.source("mail", .stopped)), "SOURCE mail stopped"),
    (.config(error: nil), "SOURCES config ok"),
    (
      .report(channel: mail, count: 5, arrived: 1, unseen: 1, id: "src-7f3a91c2:12"),
      "SET mail 5 new=1 unseen=1 id=src-7f3a91c2:12"
    ),
    (
      .report(channel: mail, count: 4, arrived: 0, unseen: nil, id: "src-7f3a91c2:13"),
      "SET mail 4 new=0 id=src-7f3a91c2:13"
    ),
  ])
  func isTheProtocolsLine(_ request: SourcesDaemonRequest, _ line: String) throws {
    #expect(RequestEncoder.line(request.request, id: request.id) == line)
    let parsed = try #require(RequestParser.parse(line)).get()
    #expect(parsed.request == request.request)
  }
}
