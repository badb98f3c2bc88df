import BadgeCore
import Testing

@testable import BadgeServer

/// The published events' observer (the LauncherEntry export) sees the events of exported
/// channels only, so that without watchers other channels' changes stage no event at all.
@Suite struct ObserverTests {
  final class Seen: EventObserver {
    var events: [String] = []
    func published(_ channel: Channel) {
      events.append("\(channel.name) \(channel.count) \(channel.settings.export ?? "-")")
    }
  }

  @Test func theObserverSeesExportedChannelsOnlyAndOtherChangesStageNothing() {
    let turns = Turns()
    let observer = Seen()
    turns.core.observer = observer
    let client = turns.peer()
    turns.send(client, "INCR mail")
    #expect(turns.commit.stagedEvents == 0, "no watcher and not exported: nothing staged")
    turns.send(client, "CONFIGURE chat export=org.example.Chat", "INCR chat 2")
    #expect(turns.commit.stagedEvents == 2)
    turns.endTurn()
    #expect(observer.events == ["chat 0 org.example.Chat", "chat 2 org.example.Chat"])

    // With a watcher every channel's events are staged; the observer still sees exported ones.
    let watcher = turns.peer()
    turns.send(watcher, "WATCH")
    _ = turns.take(watcher)
    turns.send(client, "INCR mail", "INCR chat")
    #expect(turns.commit.stagedEvents == 2)
    turns.endTurn()
    #expect(observer.events == ["chat 0 org.example.Chat", "chat 2 org.example.Chat", "chat 3 org.example.Chat"])
    #expect(turns.take(watcher).map { String($0.prefix(16)) } == ["EVENT mail count", "EVENT chat count"])
  }
}
