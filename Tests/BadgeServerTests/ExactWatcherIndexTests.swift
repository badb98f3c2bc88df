import BadgeCore
import Testing

@testable import BadgeServer

/// The index of watchers by exact channel name, which a run of one event visits instead of
/// matching every watcher's patterns.
@Suite struct ExactWatcherIndexTests {
  let turns = Turns()

  private func ids(of name: String) -> [Int] {
    turns.subscriptions.watchers(of: ChannelName(name)!).map(\.id)
  }

  private func channels(_ peer: Peer) -> [String] {
    turns.take(peer).map { String($0.split(separator: " ")[1]) }
  }

  /// One change per turn, so that each is a run of one event.
  private func changeEach(_ writer: Peer, _ names: String...) {
    for name in names {
      turns.send(writer, "INCR \(name)")
      turns.endTurn()
    }
  }

  @Test func aWatcherByExactNameGetsExactlyItsChannelsEvents() {
    let mail = turns.watcher("WATCH mail")
    let chat = turns.watcher("WATCH chat")
    let writer = turns.peer()
    changeEach(writer, "mail", "chat", "other", "mail")
    #expect(channels(mail) == ["mail", "mail"])
    #expect(channels(chat) == ["chat"])
    #expect(ids(of: "mail") == [mail.id])
    #expect(ids(of: "other") == [])
  }

  @Test func watchingAGlobMovesAnExactWatcherAmongTheBroadOnes() {
    let peer = turns.watcher("WATCH mail")
    let writer = turns.peer()
    turns.send(peer, "WATCH app:*")
    turns.endTurn()
    _ = turns.take(peer)
    #expect(ids(of: "mail") == [peer.id], "listed once, by its patterns now")
    #expect(ids(of: "app:x") == [peer.id])
    changeEach(writer, "mail", "app:x", "other")
    #expect(channels(peer) == ["mail", "app:x"])
    turns.send(peer, "WATCH")
    turns.endTurn()
    _ = turns.take(peer)
    changeEach(writer, "other")
    #expect(channels(peer) == ["other"], "watching everything now")
  }

  @Test func unwatchAndClosingTakeAWatcherOutOfTheIndex() {
    let leaving = turns.watcher("WATCH mail chat")
    let closing = turns.watcher("WATCH mail")
    let writer = turns.peer()
    turns.send(leaving, "UNWATCH")
    turns.endTurn()
    _ = turns.take(leaving)
    #expect(ids(of: "mail") == [closing.id])
    #expect(ids(of: "chat") == [])
    turns.subscriptions.stop(closing)
    #expect(ids(of: "mail") == [])
    changeEach(writer, "mail", "chat")
    #expect(leaving.output.isEmpty)
    #expect(closing.output.isEmpty)
    #expect(turns.subscriptions.count == 0)
  }

  @Test func twoNamesArriveOnceEachAndInOrderAloneOrInOneRun() {
    let peer = turns.watcher("WATCH mail chat mail")
    let writer = turns.peer()
    changeEach(writer, "chat", "mail")
    #expect(channels(peer) == ["chat", "mail"])
    turns.send(writer, "INCR mail", "INCR other", "INCR chat")
    turns.endTurn()
    #expect(channels(peer) == ["mail", "chat"])
    #expect(ids(of: "mail") == [peer.id])
  }
}
