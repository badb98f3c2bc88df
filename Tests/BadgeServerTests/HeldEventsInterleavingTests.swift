import BadgeCore
import Testing

@testable import BadgeServer

/// PROTOCOL.md, "Long replies" and "Slow readers": a watcher never loses a change, whatever
/// the interleaving of its long replies (a `WATCH` snapshot, a `LIST`), the changes made
/// meanwhile, partial sends and the merged events owed once its output drains. Each case is a
/// fixed seed's interleaving of three watchers (one at a time stalled for a while), so a failure replays.
@Suite struct HeldEventsInterleavingTests {
  private static func channel(_ i: Int) -> String { "c" + String(100_000 + i).dropFirst() }

  /// A fixed stream of pseudo-random numbers (SplitMix64), so that each seed is one interleaving.
  struct SeededNumbers: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// The core, its watchers' sockets (each takes a random number of bytes per turn) and what
  /// each watcher has received.
  final class Run {
    let turns = Turns()
    var numbers: SeededNumbers
    var received: [ObjectIdentifier: [UInt8]] = [:]

    init(seed: Int) { numbers = SeededNumbers(state: UInt64(seed) &* 7919) }

    func random(_ range: Range<Int>) -> Int { Int.random(in: range, using: &numbers) }

    /// Sends what the socket takes this turn, as the outbox does: once the output drained, the
    /// merged events owed are appended and sent too.
    func send(_ peer: Peer) {
      var room = random(0..<(Bool.random(using: &numbers) ? 3000 : 40_000))
      while true {
        let taken = min(room, peer.pendingOutput)
        received[ObjectIdentifier(peer), default: []] += peer.output[peer.outputOffset..<(peer.outputOffset + taken)]
        peer.outputOffset += taken
        room -= taken
        if peer.pendingOutput > 0 {
          peer.outputPartlySent()
          return
        }
        _ = peer.outputSent()
        guard peer.owesMergedEvents, turns.core.appendMergedEvents(to: peer) else { return }
      }
    }

    func lines(of peer: Peer) -> [String] {
      String(decoding: received[ObjectIdentifier(peer)] ?? [], as: UTF8.self).split(separator: "\n").map(String.init)
    }
  }

  @Test(arguments: 0..<30) func aWatcherEndsAtEveryChannelsStateWhateverTheInterleaving(seed: Int) {
    let run = Run(seed: seed)
    let turns = run.turns
    let channels = 1200
    let maker = turns.peer()
    for i in 0..<channels { turns.send(maker, "SET \(Self.channel(i)) \(i + 1)") }
    turns.endTurn()
    let writer = turns.peer()
    let watchers = (0..<3).map { _ in turns.peer() }
    let requests = ["WATCH c* new*", "WATCH c0*", "WATCH c* new*"]
    var drained = [true, true, true]
    var started = [false, false, false]
    let changing = 300
    var step = 0
    var stalled = -1
    while step < changing
      || watchers.contains(where: { $0.isReplying || $0.behindFrom != nil || $0.pendingOutput > 0 })
    {
      step += 1
      if step < changing {
        switch run.random(0..<10) {
        case 0..<4:
          for _ in 0..<run.random(1..<8) { turns.send(writer, "INCR \(Self.channel(run.random(0..<channels)))") }
        case 4: turns.send(writer, "SET new\(run.random(0..<20)) 3")
        case 5: turns.send(writer, "CLEAR \(Self.channel(run.random(0..<channels)))")
        default: break
        }
        for i in watchers.indices where !started[i] && run.random(0..<20) == 0 {
          turns.send(watchers[i], requests[i])
          started[i] = true
        }
        let asker = watchers[run.random(0..<3)]
        if run.random(0..<30) == 0 && asker.isWatching && !asker.isReplying { turns.send(asker, "LIST") }
      }
      // A reply's next chunk once its output drained (in a turn of its own, as the reader does).
      for i in watchers.indices where watchers[i].isReplying && drained[i] && Bool.random(using: &run.numbers) {
        turns.core.continueReply(watchers[i])
        drained[i] = false
      }
      // One watcher at a time reads nothing for a while, so that it falls far behind.
      if step % 40 == 0 { stalled = run.random(0..<3) }
      if step >= changing { stalled = -1 }
      turns.endTurn(sending: {
        for i in watchers.indices where i != stalled { run.send(watchers[i]) }
      })
      for i in watchers.indices where watchers[i].pendingOutput == 0 { drained[i] = true }
    }
    let checker = turns.peer()
    for (i, watcher) in watchers.enumerated() where started[i] {
      let lines = run.lines(of: watcher)
      let snapshotEnd = lines.firstIndex(of: "OK watching") ?? lines.count
      #expect(!lines[..<snapshotEnd].contains { $0.hasPrefix("EVENT ") }, "no event inside the snapshot")
      var view: [String: String] = [:]
      for line in lines {
        let words = line.split(separator: " ")
        guard words.count > 2, words[0] == "STATE" || words[0] == "EVENT" else { continue }
        view[String(words[1])] = "count=\(field(line, "count") ?? "-") seq=\(field(line, "seq") ?? "-")"
      }
      for c in 0..<channels where i != 1 || Self.channel(c).hasPrefix("c0") {
        turns.send(checker, "GET \(Self.channel(c))")
        let now = turns.take(checker)[0]
        if field(now, "count") == "0" {
          #expect(view[Self.channel(c)].map { $0.hasPrefix("count=0 ") } ?? true, "seed \(seed): \(Self.channel(c))")
        } else {
          let expected = "count=\(field(now, "count")!) seq=\(field(now, "seq")!)"
          #expect(view[Self.channel(c)] == expected, "seed \(seed), watcher \(i): \(Self.channel(c))")
        }
      }
    }
    turns.endTurn()
  }
}
