import BadgeCore
import TestSupport
import Testing

@testable import BadgeServer

/// The watchers filed by pattern (`WatcherIndex`) get exactly the events that matching every
/// pattern of every watcher one by one would give them, in the same order: random patterns of
/// every shape (exact names, prefixes, other globs, every channel), watchers that widen and
/// leave, and turns of one change or of several.
@Suite struct PatternIndexTests {
  /// A name over a small alphabet, so that names and patterns meet often.
  private static func word(_ random: inout SplitMix, _ length: Int) -> String {
    String((0..<length).map { _ in ["a", "b", ":", "."].randomElement(using: &random)! })
  }

  private static func pattern(_ random: inout SplitMix) -> String {
    let body = word(&random, Int.random(in: 0...3, using: &random))
    switch Int.random(in: 0..<5, using: &random) {
    case 0, 1: return "a" + body  // an exact name
    case 2: return "a" + body + "*"  // a prefix
    case 3: return "*" + body  // another glob
    default: return Bool.random(using: &random) ? "*" : "a?" + body
    }
  }

  /// What a watcher of `patterns` (nil: every channel) gets of `name` by trying each pattern.
  private static func watches(_ patterns: [ChannelPattern]?, _ name: ChannelName) -> Bool {
    guard let patterns else { return true }
    return patterns.contains { $0.matches(name) }
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
  func theIndexDeliversWhatMatchingEachPatternWould(seed: UInt64) {
    var random = SplitMix(seed: seed)
    let turns = Turns()
    let writer = turns.peer()
    // The watchers and the patterns each watches, as the test keeps them (nil: every channel).
    var watchers: [(peer: Peer, patterns: [ChannelPattern]?)] = []
    var expected: [Int: [String]] = [:]
    for turn in 0..<60 {
      // Some watchers come, widen or leave (in a turn of their own: their snapshots are not
      // what is compared).
      for _ in 0..<Int.random(in: 0...3, using: &random) {
        switch Int.random(in: 0..<4, using: &random) {
        case 0, 1:
          let texts =
            Int.random(in: 0..<6, using: &random) == 0
            ? [] : (0..<Int.random(in: 1...6, using: &random)).map { _ in Self.pattern(&random) }
          let peer = turns.watcher((["WATCH"] + texts).joined(separator: " "))
          watchers.append((peer, texts.isEmpty ? nil : texts.map { ChannelPattern($0)! }))
        case 2 where !watchers.isEmpty:
          let i = Int.random(in: 0..<watchers.count, using: &random)
          let more =
            Int.random(in: 0..<8, using: &random) == 0
            ? [] : (0..<Int.random(in: 1...3, using: &random)).map { _ in Self.pattern(&random) }
          turns.send(watchers[i].peer, (["WATCH"] + more).joined(separator: " "))
          turns.endTurn()
          _ = turns.take(watchers[i].peer)
          if let old = watchers[i].patterns {
            watchers[i].patterns =
              more.isEmpty ? nil : old + more.map { ChannelPattern($0)! }.filter { !old.contains($0) }
          }
        case 3 where !watchers.isEmpty:
          let i = Int.random(in: 0..<watchers.count, using: &random)
          if Bool.random(using: &random) {
            turns.send(watchers[i].peer, "UNWATCH")
            turns.endTurn()
          } else {
            turns.close(watchers[i].peer)
          }
          _ = turns.take(watchers[i].peer)
          watchers.remove(at: i)
        default: break
        }
      }
      // A turn of one change, or of several.
      let changes = (0..<(Bool.random(using: &random) ? 1 : Int.random(in: 2...8, using: &random))).map { _ in
        "a" + Self.word(&random, Int.random(in: 0...4, using: &random))
      }
      for (k, text) in changes.enumerated() { turns.send(writer, "SET \(text) \(turn * 10 + k + 1)") }
      turns.endTurn()
      _ = turns.take(writer)
      for (peer, patterns) in watchers {
        expected[peer.id, default: []] += changes.enumerated()
          .filter { Self.watches(patterns, name($0.element)) }
          .map { "\($0.element) \(turn * 10 + $0.offset + 1)" }
        let got = turns.take(peer).map { "\($0.split(separator: " ")[1]) \(field($0, "count")!)" }
        #expect(
          got == expected[peer.id, default: []], "seed \(seed), turn \(turn), watcher \(peer.id): \(patterns ?? [])")
        expected[peer.id] = []
      }
      for text in changes {
        let found = Set(turns.subscriptions.watchers(of: name(text)).map(\.id))
        let wanted = Set(watchers.filter { Self.watches($0.patterns, name(text)) }.map(\.peer.id))
        #expect(found == wanted, "seed \(seed), turn \(turn): the watchers of \(text)")
      }
    }
  }

  @Test func aWatcherReachedThroughSeveralPatternsGetsEachEventOnce() {
    let turns = Turns()
    let peer = turns.watcher("WATCH app:mail app:* app:m* *mail a?p:mail *")
    let writer = turns.peer()
    turns.send(writer, "INCR app:mail")
    turns.endTurn()
    #expect(turns.take(peer).count == 1)
    turns.send(writer, "INCR app:mail", "INCR other", "INCR app:mail")
    turns.endTurn()
    #expect(turns.take(peer).map { String($0.split(separator: " ")[1]) } == ["app:mail", "other", "app:mail"])
  }

  @Test func leavingTakesAWatcherOutOfEveryListItSharesWithOthers() {
    let turns = Turns()
    let shared = (0..<20).map { _ in turns.watcher("WATCH app:* mail *:x") }
    let writer = turns.peer()
    for peer in shared.enumerated().filter({ $0.offset % 2 == 0 }).map(\.element) { turns.close(peer) }
    turns.send(writer, "INCR app:a", "INCR mail", "INCR b:x")
    turns.endTurn()
    for (i, peer) in shared.enumerated() {
      #expect(turns.take(peer).count == (i % 2 == 0 ? 0 : 3), "watcher \(i)")
    }
    #expect(turns.subscriptions.watchers(of: name("app:a")).count == 10)
    #expect(turns.subscriptions.watchers(of: name("b:x")).count == 10)
  }
}
