import BadgeCore
import BadgeSources
import Testing

/// Exec sources' interval runs under `[daemon] hooks_max_running`, by the daemon's hook
/// scheduler: runs beyond it wait for a place, a followed command takes none.
@Suite struct ExecRunLimitTests {
  static func exec(_ name: String, _ schedule: String) -> String {
    "[source.\(name)]\nkind = exec\ncommand = count-\(name)\n\(schedule)\n\n"
  }

  static func ran(_ source: String, _ text: String) -> SourceInput {
    .exec(source: source, .ran(output: Array(text.utf8), timedOut: false))
  }

  static func spawns(_ actions: [SourceAction]) -> [String] {
    actions.compactMap {
      if case .spawn(let source) = $0 { return source }
      return nil
    }
  }

  @Test func runsBeyondTheLimitWaitForAPlace() throws {
    let harness = try SourcesHarness(
      "[daemon]\nhooks_max_running = 2\n\n" + Self.exec("a", "interval_s = 60") + Self.exec("b", "interval_s = 60")
        + Self.exec("tail", "follow = yes") + Self.exec("c", "interval_s = 60"))
    #expect(harness.core.config.maxRunning == 2)
    #expect(Self.spawns(harness.start()) == ["a", "b", "tail"])
    // The followed command's lines take no place; a's run ending frees one for c.
    #expect(Self.spawns(harness.run(.exec(source: "tail", .printed(Array("1\n".utf8))))).isEmpty)
    #expect(Self.spawns(harness.run(Self.ran("a", "1\n"))) == ["c"])
    #expect(Self.spawns(harness.run(Self.ran("c", "2\n"))).isEmpty)
    // a and c come due together: a takes the free place, c waits.
    #expect(Self.spawns(harness.advance(ms: 60_000)) == ["a"])
    // A resume asks every source for a run: each runs once more after its run, none piles up.
    #expect(Self.spawns(harness.run(.resumed(.clockGap))).isEmpty)
    // Places go to the runs that waited longest: c, then b's run after its own.
    #expect(Self.spawns(harness.run(Self.ran("b", "3\n"))) == ["c"])
    #expect(Self.spawns(harness.run(Self.ran("a", "1\n"))) == ["b"])
    #expect(Self.spawns(harness.run(Self.ran("c", "2\n"))) == ["a"])
  }

  @Test func theDefaultIsTheDaemons() throws {
    let harness = try SourcesHarness(Self.exec("a", "interval_s = 60"))
    #expect(harness.core.config.maxRunning == 8)
  }

  @Test func aRunWaitingForASourceAReloadStoppedIsDropped() throws {
    let before =
      "[daemon]\nhooks_max_running = 1\n\n" + Self.exec("a", "interval_s = 60") + Self.exec("b", "interval_s = 60")
    let harness = try SourcesHarness(before)
    #expect(Self.spawns(harness.start()) == ["a"])
    let reloaded = harness.run(
      .reload(.success(try sources("[daemon]\nhooks_max_running = 1\n\n" + Self.exec("a", "interval_s = 60")))))
    #expect(Self.spawns(reloaded).isEmpty)
    #expect(Self.spawns(harness.run(Self.ran("a", "1\n"))).isEmpty)
  }

  @Test func aRestartedSourcesRunWaitsForTheKilledOneAndIgnoresItsOutput() throws {
    let harness = try SourcesHarness(Self.exec("a", "interval_s = 60"))
    harness.start()
    harness.connect()
    harness.run(Self.ran("a", "2\n"))
    harness.answerWrites()
    harness.advance(ms: 60_000)
    let reloaded = harness.run(.reload(.success(try sources(Self.exec("a", "interval_s = 30")))))
    #expect(reloaded.contains(.kill(source: "a")))
    #expect(Self.spawns(reloaded).isEmpty)
    harness.run(.daemon(.claimed(ChannelName("a")!, count: 2, total: 2)))
    // The killed run's end: its output counts for nothing, and the new run starts.
    let ended = harness.run(Self.ran("a", "9\n"))
    #expect(ended.writes.isEmpty)
    #expect(Self.spawns(ended) == ["a"])
    #expect(harness.run(Self.ran("a", "3\n")).writes == ["SET a 3 new=1 id=src-7f3a91c2:2"])
  }
}
