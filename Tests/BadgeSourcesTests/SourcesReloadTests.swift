import BadgeConfig
import BadgeCore
import BadgeProtocol
import BadgeSources
import Testing

/// Reloads through `SourcesCore`: an identical spec runs on untouched, a changed one restarts
/// and recounts, a removed one is stopped and its channel written 0 and released, a new one
/// claims and counts; a refused file changes nothing.
@Suite struct SourcesReloadTests {
  /// A files source counting `match` under `path`.
  static func files(_ name: String, _ path: String, _ match: String) -> String {
    "[source.\(name)]\nkind = files\npath = \(path)\nmatch = \(match)\n\n"
  }

  static let before =
    files("downloads", "~/Downloads", "*.part") + files("queue", "/var/queue", "*")
    + "[source.updates]\nkind = exec\ncommand = count-updates\ninterval_s = 60\n"

  /// `before` with `queue` counting only `*.job`, `updates` gone and `spool` new.
  static let after =
    files("downloads", "~/Downloads", "*.part") + files("queue", "/var/queue", "*.job")
    + files("spool", "/var/spool/out", "*")

  static func counting() throws -> SourcesHarness {
    let harness = try SourcesHarness(Self.before)
    harness.mkdir("/home/u/Downloads", "/var/queue", "/var/spool/out")
    harness.place(
      "/home/u/Downloads/a.part", "/var/queue/1.job", "/var/queue/2.tmp", "/var/spool/out/m1", "/var/spool/out/m2")
    harness.start()
    harness.connect()
    harness.run(.exec(source: "updates", .ran(output: Array("4\n".utf8), timedOut: false)))
    harness.answerWrites()
    harness.advance(ms: 1000)
    return harness
  }

  static func channel(_ name: String) -> ChannelName { ChannelName(name)! }

  @Test func anIdenticalFileTouchesNothing() throws {
    let harness = try Self.counting()
    #expect(harness.daemon["downloads"]! == (1, 1))
    #expect(harness.daemon["queue"]! == (2, 2))
    #expect(harness.daemon["updates"]! == (4, 4))
    let reloaded = harness.run(.reload(.success(try sources(Self.before))))
    #expect(reloaded == [.log(.info, "Reloaded: 3 sources kept, 0 restarted, 0 started, 0 stopped.")])
    // Still counting as before.
    #expect(
      harness.read(harness.create("/home/u/Downloads/b.part")).writes == ["SET downloads 2 new=1 id=src-7f3a91c2:4"])
  }

  @Test func aChangedSourceRestartsARemovedOneIsReleasedANewOneCounts() throws {
    let harness = try Self.counting()
    let reloaded = harness.run(.reload(.success(try sources(Self.after))))
    #expect(
      reloaded.filter {
        if case .log = $0 { return false }
        if case .request = $0 { return false }
        if case .status = $0 { return false }
        return true
      } == [
        .kill(source: "updates"), .unwatch(source: "queue", tag: []),
        .watch(source: "queue", tag: [], path: Array("/var/queue".utf8), purpose: .folders),
        .list(source: "queue", tag: [], path: Array("/var/queue".utf8)),
        .watch(source: "spool", tag: [], path: Array("/var/spool/out".utf8), purpose: .folders),
        .list(source: "spool", tag: [], path: Array("/var/spool/out".utf8)),
      ])
    #expect(harness.logs.contains("Reloaded: 1 sources kept, 1 restarted, 1 started, 1 stopped."))
    // The service manager's status counts the sources of the new file: two recount.
    #expect(reloaded.contains(.status("Running 3 sources: 1 ok, 2 waiting")))
    #expect(reloaded.writes == ["SET updates 0 new=0 id=src-7f3a91c2:4"])
    #expect(reloaded.requests.contains(.claim(source: "spool", channel: Self.channel("spool"), onClear: .seen)))
    #expect(reloaded.requests.contains(.claim(source: "queue", channel: Self.channel("queue"), onClear: .seen)))
    #expect(!reloaded.requests.contains { $0.claimed.map { "\($0)" == "downloads" } ?? false })
    #expect(!reloaded.requests.contains { if case .source(_, .release) = $0.request { true } else { false } })
    #expect(reloaded.requests.contains(SourcesDaemonRequest(.source("updates", .stopped))), "its report unlisted")
    // The claims answered: the new and the restarted source write what they counted.
    var written: [SourceAction] = []
    for channel in reloaded.requests.compactMap(\.claimed) {
      let state = harness.daemon["\(channel)"] ?? (0, 0)
      written += harness.run(.daemon(.claimed(channel, count: state.count, total: state.total)))
    }
    #expect(written.writes == ["SET queue 1 new=0 id=src-7f3a91c2:5", "SET spool 2 new=2 id=src-7f3a91c2:6"])
    // The 0 answered: only then released.
    let released = harness.answerWrites()
    #expect(released.requests == [.release(source: "updates", channel: Self.channel("updates"))])
    #expect(harness.daemon["updates"]! == (0, 4))
    #expect(harness.daemon["queue"]! == (1, 2))
    #expect(harness.daemon["spool"]! == (2, 2))
    // The stopped source's late result is nothing now, and its interval runs no more.
    #expect(harness.run(.exec(source: "updates", .ran(output: Array("9\n".utf8), timedOut: false))).isEmpty)
    #expect(!harness.advance(ms: 60_000).contains(.spawn(source: "updates")))
  }

  @Test func aRefusedFileKeepsEverySourceRunning() throws {
    let harness = try Self.counting()
    let error = ConfigError(file: "badged.conf", line: 12, reason: "Unknown key 'fodlers' in [source.mail]")
    let refused = harness.run(.reload(.failure(error)))
    #expect(
      refused == [
        .log(
          .error,
          "Reload refused, the sources run on as they were: badged.conf:12: Unknown key 'fodlers' in [source.mail]."),
        .request(.config(error: "badged.conf:12: Unknown key 'fodlers' in [source.mail]")),
      ])
    #expect(
      harness.read(harness.create("/var/queue/3.job")).writes == ["SET queue 3 new=1 id=src-7f3a91c2:4"])
    harness.answerWrites()
    // The daemon restarted: the refusal is told again on the new connection.
    harness.disconnect()
    #expect(
      harness.connect().requests.contains(.config(error: "badged.conf:12: Unknown key 'fodlers' in [source.mail]")))
    // A file accepted later clears it.
    let accepted = harness.run(.reload(.success(try sources(Self.before))))
    #expect(accepted.requests == [.config(error: nil)])
  }
}

/// Reloads of a source whose template names its channels, and of a channel that changes source.
@Suite struct SourcesReloadChannelTests {
  static func perFolder(_ folders: String) -> String {
    "[source.mail]\nkind = maildir\npath = ~/Mail\nchannel = mail:{folder}\nfolders = \(folders)\n"
  }

  static func channel(_ name: String) -> ChannelName { ChannelName(name)! }

  @Test func aFolderNoLongerCountedIsReleasedOnceTheOthersAreCounted() throws {
    let harness = try SourcesHarness(Self.perFolder("INBOX Lists/*"))
    harness.maildir("/home/u/Mail")
    harness.maildir("/home/u/Mail/.Lists.rust")
    harness.place("/home/u/Mail/new/a", "/home/u/Mail/.Lists.rust/new/b")
    harness.startCounting()
    let reloaded = harness.run(.reload(.success(try sources(Self.perFolder("INBOX")))))
    #expect(
      reloaded.requests.filter {
        if case .source(_, .status) = $0.request { return false }
        return true
      } == [
        .claim(source: "mail", channel: Self.channel("mail:INBOX"), onClear: .seen),
        .claim(source: "mail", channel: Self.channel("mail:Lists.rust"), onClear: .seen),
      ])
    var written: [SourceAction] = []
    for name in ["mail:INBOX", "mail:Lists.rust"] {
      let state = harness.daemon[name]!
      written += harness.run(.daemon(.claimed(Self.channel(name), count: state.count, total: state.total)))
    }
    // The restarted source's recount, as at a start, and the folder it no longer counts at 0.
    #expect(
      written.writes == ["SET mail:INBOX 1 new=0 id=src-7f3a91c2:3", "SET mail:Lists.rust 0 new=0 id=src-7f3a91c2:4"])
    #expect(harness.answerWrites().requests == [.release(source: "mail", channel: Self.channel("mail:Lists.rust"))])
    #expect(harness.daemon["mail:INBOX"]! == (1, 1) && harness.daemon["mail:Lists.rust"]! == (0, 1))
  }

  /// A claim the daemon kept from an earlier run whose source the file no longer has (removed
  /// while the program was not running): claimed for that source, written 0, released. A claim
  /// of a channel a source of the file counts, or could name, is left alone.
  @Test func aClaimLeftByAnEarlierRunIsWrittenZeroAndReleased() throws {
    let harness = try SourcesHarness(
      "[source.a]\nkind = exec\ncommand = a\nchannel = jobs\n\n"
        + "[source.mail]\nkind = maildir\npath = /home/u/Mail\nfolders = *\nchannel = mail:{folder}\n")
    harness.start()
    let connected = harness.connect()
    #expect(connected.requests.contains(SourcesDaemonRequest(.list)))
    harness.daemon["old"] = (5, 9)
    let listed = harness.run(
      .daemon(.sourceChannels([Self.channel("jobs"): "a", Self.channel("old"): "gone", Self.channel("mail:x"): "m"])))
    #expect(listed.requests == [.claim(source: "gone", channel: Self.channel("old"), onClear: .seen)])
    #expect(harness.logs.contains("Releasing old: source 'gone' counted it, and badged.conf has no such source now."))
    let zero = harness.run(.daemon(.claimed(Self.channel("old"), count: 5, total: 9)))
    #expect(zero.writes.count == 1 && zero.writes.first?.hasPrefix("SET old 0 new=0 id=") == true, "\(zero.writes)")
    #expect(harness.answerWrites().requests == [.release(source: "gone", channel: Self.channel("old"))])
    #expect(harness.daemon["old"]! == (0, 9))
  }

  /// A source renamed while the program was not running: the daemon refuses the new name's
  /// claim of the old one's channel, so the channel is released by the old name and claimed again.
  @Test func aChannelClaimedByAnEarlierRunsOtherSourceIsHandedOver() throws {
    let harness = try SourcesHarness("[source.b]\nkind = exec\ncommand = b\nchannel = jobs\n")
    harness.start()
    harness.connect(refusing: ["jobs"])
    let listed = harness.run(.daemon(.sourceChannels([Self.channel("jobs"): "a"])))
    #expect(
      listed.requests == [
        .release(source: "a", channel: Self.channel("jobs")),
        .claim(source: "b", channel: Self.channel("jobs"), onClear: .seen),
      ])
    #expect(harness.logs.contains("Handing jobs from source 'a' to source 'b'."))
  }

  @Test func aChannelThatChangesSourceIsLetGoThenClaimedWithoutAZero() throws {
    let harness = try SourcesHarness("[source.a]\nkind = exec\ncommand = a\nchannel = jobs\n")
    harness.start()
    harness.connect()
    harness.run(.exec(source: "a", .ran(output: Array("3\n".utf8), timedOut: false)))
    harness.answerWrites()
    harness.advance(ms: 1000)
    let reloaded = harness.run(.reload(.success(try sources("[source.b]\nkind = exec\ncommand = b\nchannel = jobs\n"))))
    #expect(
      reloaded.requests.filter {
        if case .source(_, .status) = $0.request { return false }
        return true
      } == [
        .release(source: "a", channel: Self.channel("jobs")), SourcesDaemonRequest(.source("a", .stopped)),
        .claim(source: "b", channel: Self.channel("jobs"), onClear: .seen),
      ])
    harness.run(.daemon(.claimed(Self.channel("jobs"), count: 3, total: 3)))
    #expect(
      harness.run(.exec(source: "b", .ran(output: Array("5\n".utf8), timedOut: false))).writes == [
        "SET jobs 5 new=2 id=src-7f3a91c2:2"
      ])
  }
}
