import BadgeCore
import BadgeProtocol
import BadgeSources
import Testing

/// An exec source through `SourcesCore`: interval runs, followed commands, lines that are no
/// count, restarts with back-off.
@Suite struct ExecSourceCoreTests {
  static let updates = ChannelName("updates")!

  static func output(_ text: String) -> SourceInput {
    .exec(source: "updates", .ran(output: Array(text.utf8), timedOut: false))
  }

  static func printed(_ text: String) -> SourceInput { .exec(source: "updates", .printed(Array(text.utf8))) }

  static func spawns(_ actions: [SourceAction]) -> Int { actions.count { $0 == .spawn(source: "updates") } }

  @Test func anIntervalCommandRunsAtStartOnConnectionAndEveryInterval() throws {
    let harness = try SourcesHarness(
      """
      [source.updates]
      kind = exec
      command = /usr/local/bin/count-updates
      interval_s = 60
      """)
    #expect(Self.spawns(harness.start()) == 1)
    // The connection asks for a recount during the run: it runs once after.
    #expect(Self.spawns(harness.connect()) == 0)
    let first = harness.run(Self.output("noise\n3\n\n"))
    #expect(Self.spawns(first) == 1)
    #expect(first.writes == ["SET updates 3 new=3 id=src-7f3a91c2:1"])
    harness.answerWrites()
    let second = harness.run(Self.output("3\n"))
    #expect(second.writes.isEmpty)
    #expect(second.contains(.armTimer(at: harness.time.boottime + 60_000_000)))
    #expect(Self.spawns(harness.advance(ms: 59_999)) == 0)
    #expect(Self.spawns(harness.advance(ms: 1)) == 1)
    // A line that is no count leaves the count, and the next good one clears the error.
    let bad = harness.run(Self.output("-3\n"))
    #expect(bad.writes.isEmpty)
    #expect(harness.logs.last == "Source updates: error: not a count: '-3'.")
    #expect(
      bad.requests.contains(
        .status(
          SourceStatus(
            name: "updates", kind: "exec", state: .error, channels: 1, count: 3, changed: 1_764_620_000_000,
            error: "not a count: '-3'"))))
    harness.advance(ms: 60_000)
    let good = harness.run(Self.output("5\n"))
    #expect(good.writes == ["SET updates 5 new=2 id=src-7f3a91c2:2"])
    #expect(harness.logs.last == "Source updates: counting again after 1 failed attempt.")
    harness.answerWrites()
    #expect(harness.daemon["updates"]! == (5, 5))
  }

  @Test func aResumeRunsTheCommandAtOnce() throws {
    let harness = try SourcesHarness("[source.updates]\nkind = exec\ncommand = count\n")
    harness.start()
    harness.run(Self.output("1\n"))
    #expect(Self.spawns(harness.run(.resumed(.clockGap))) == 1)
  }

  @Test func anIntervalThatPassedInASuspendIsDueOnWaking() throws {
    let harness = try SourcesHarness("[source.updates]\nkind = exec\ncommand = count\ninterval_s = 60\n")
    harness.start()
    harness.run(Self.output("1\n"))
    // Two minutes asleep: boot time went on, monotonic time did not.
    harness.time.boottime += 120_000_000
    #expect(Self.spawns(harness.run(.tick)) == 1)
  }

  @Test func aFollowedCommandCountsEachLineAndIsRestartedWithBackOff() throws {
    let harness = try SourcesHarness(
      """
      [source.updates]
      kind = exec
      command = todo-follow
      follow = yes
      """)
    #expect(Self.spawns(harness.start()) == 1)
    #expect(Self.spawns(harness.connect()) == 0)
    #expect(harness.run(Self.printed("1\n2")).writes == ["SET updates 1 new=1 id=src-7f3a91c2:1"])
    harness.answerWrites()
    harness.advance(ms: 1000)
    #expect(harness.run(Self.printed("\n1e9\n99999999999\n")).writes == ["SET updates 2 new=1 id=src-7f3a91c2:2"])
    #expect(harness.logs.last == "Source updates: error: not a count: '99999999999'.")
    harness.answerWrites()
    // It exits: retried after 1 s, then 2 s.
    let exited = harness.run(.exec(source: "updates", .exited))
    #expect(harness.logs.last == "Source updates: the command exited; retrying.")
    #expect(exited.contains(.armTimer(at: harness.time.boottime + 1_000_000)))
    #expect(
      exited.requests.contains {
        if case .source(_, .status(let status)) = $0.request {
          return status.state == .retrying && status.retryAt == Int(harness.time.wallMs + 1000)
        }
        return false
      })
    #expect(Self.spawns(harness.advance(ms: 999)) == 0)
    #expect(Self.spawns(harness.advance(ms: 1)) == 1)
    harness.run(.exec(source: "updates", .exited))
    #expect(Self.spawns(harness.advance(ms: 1999)) == 0)
    #expect(Self.spawns(harness.advance(ms: 1)) == 1)
    // A line too long stops it.
    let long = harness.run(Self.printed(String(repeating: "7", count: 300)))
    #expect(long.contains(.kill(source: "updates")))
    #expect(harness.logs.last == "Source updates: error: printed more than 256 bytes in a line.")
  }

  /// A command that cannot be started: one error line however often it is tried, its place
  /// among the runs freed, and the next interval kept; a followed one retried with back-off.
  @Test func aCommandThatCannotStartIsOneErrorNotOneLinePerTry() throws {
    let harness = try SourcesHarness("[source.updates]\nkind = exec\ncommand = gone\ninterval_s = 60\n")
    harness.start()
    let failed = SourceInput.exec(source: "updates", .failedToStart("Failed to start 'gone': No such file"))
    let first = harness.run(failed)
    #expect(
      harness.logs.filter { $0.contains("error") } == ["Source updates: error: Failed to start 'gone': No such file."])
    #expect(first.contains(.armTimer(at: harness.time.boottime + 60_000_000)))
    #expect(Self.spawns(harness.advance(ms: 60_000)) == 1)
    harness.run(failed)
    #expect(harness.logs.filter { $0.contains("error") }.count == 1)
    #expect(Self.spawns(harness.advance(ms: 60_000)) == 1)
    harness.run(Self.output("2\n"))
    #expect(harness.logs.last == "Source updates: counting again after 2 failed attempts.")

    let follow = try SourcesHarness("[source.updates]\nkind = exec\ncommand = gone\nfollow = yes\n")
    follow.start()
    #expect(follow.run(failed).contains(.armTimer(at: follow.time.boottime + 1_000_000)))
    #expect(Self.spawns(follow.advance(ms: 1000)) == 1)
    follow.run(failed)
    #expect(Self.spawns(follow.advance(ms: 1999)) == 0)
    #expect(Self.spawns(follow.advance(ms: 1)) == 1)
    #expect(
      follow.logs.filter { $0.contains("retrying") } == [
        "Source updates: Failed to start 'gone': No such file; retrying."
      ])
  }
}
