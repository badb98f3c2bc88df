import BadgeCore
import BadgeProtocol
import BadgeSources
import Testing

@testable import BadgeSourcesProgram

/// What a request's reply tells the sources' core: the daemon's lines as PROTOCOL.md shows
/// them, read back into `SourcesDaemonAnswer`s.
@Suite struct SourcesRuntimeAnswerTests {
  static let inbox = ChannelName("inbox")!

  /// The reply `lines` to `request`, its state lines kept as the runtime keeps them.
  static func answer(_ request: SourcesDaemonRequest, _ lines: [String]) -> SourcesDaemonAnswer? {
    var states: [ChannelSnapshot] = []
    for line in lines.map(ReplyLine.init) {
      if case .state(let snapshot) = line { states.append(snapshot) }
      if line.isStatus { return SourcesRuntime.answer(to: request, line, states: states) }
    }
    return nil
  }

  static let state =
    "STATE inbox count=4 label=4 dot=0 pulse=3000 muted=0 seq=41 badge=unseen dnd=off unseen=4 total=144 "
    + "source=inbox stale=0"

  @Test func aClaimIsTheChannelsCountAndTotal() {
    let claim = SourcesDaemonRequest.claim(source: "inbox", channel: Self.inbox, onClear: .seen)
    #expect(Self.answer(claim, [Self.state, "OK"]) == .claimed(Self.inbox, count: 4, total: 144))
    #expect(
      Self.answer(claim, ["ERR claimed 'inbox' is counted by source 'mail'"])
        == .refused(id: nil, reason: "claimed 'inbox' is counted by source 'mail'"))
  }

  @Test func aWriteIsItsTotalAlsoWhenRepeatedAndARefusalKeepsItsID() {
    let write = SourcesDaemonRequest.report(channel: Self.inbox, count: 4, arrived: 4, unseen: nil, id: "src-1:7")
    #expect(Self.answer(write, [Self.state, "OK"]) == .answered(id: "src-1:7", total: 144))
    #expect(Self.answer(write, [Self.state, "OK repeated"]) == .answered(id: "src-1:7", total: 144))
    #expect(
      Self.answer(write, ["ERR mirrored 'inbox' is mirrored"])
        == .refused(id: "src-1:7", reason: "mirrored 'inbox' is mirrored"))
  }

  /// `LIST` at a connection: the channels sources claim, with their sources; others left out.
  @Test func aListingIsTheClaimedChannelsWithTheirSources() {
    let lines = [
      Self.state,
      "STATE ci count=2 label=2 dot=0 pulse=0 muted=0 seq=3 badge=count dnd=off unseen=2 total=2",
      "STATE deploy count=3 label=3 dot=0 pulse=0 muted=0 seq=4 badge=count dnd=off unseen=3 total=3 owner=server stale=0",
      "STATE old count=5 label=5 dot=0 pulse=0 muted=0 seq=9 badge=unseen dnd=off unseen=5 total=5 "
        + "source=gone stale=1 since=1764620000",
      "OK",
    ]
    #expect(
      Self.answer(SourcesDaemonRequest(.list), lines)
        == .sourceChannels([Self.inbox: "inbox", ChannelName("old")!: "gone"]))
  }

  @Test func otherRequestsOKIsNothingForTheCore() {
    #expect(Self.answer(SourcesDaemonRequest(.sources(.attach)), ["OK"]) == nil)
    #expect(
      Self.answer(SourcesDaemonRequest(.sources(.attach)), ["ERR sources-taken another program counts"])
        == .refused(id: nil, reason: "sources-taken another program counts"))
  }
}
