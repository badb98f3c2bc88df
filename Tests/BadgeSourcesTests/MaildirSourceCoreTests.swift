import BadgeCore
import BadgeProtocol
import BadgeSources
import Testing

/// A maildir source through `SourcesCore`: recounts, deliveries, flag changes, bursts,
/// overflow, replaced and missing folders, mark-read on a click, reconnection, resume.
@Suite struct MaildirSourceCoreTests {
  static let config = """
    [source.mail]
    kind = maildir
    path = ~/Mail
    """
  static let markRead = config + "\non_clear = mark-read\n"
  static let mail = ChannelName("mail")!
  /// A channel per folder, INBOX and the folders under Lists.
  static let perFolder = """
    [source.mail]
    kind = maildir
    path = ~/Mail
    channel = mail:{folder}
    folders = INBOX Lists/*
    """

  /// A harness with a Maildir at ~/Mail holding `files` (relative to it), started and
  /// connected, its first write answered, a second later.
  static func counting(_ files: [String], config: String = config, daemon: (Int, Int) = (0, 0)) throws
    -> SourcesHarness
  {
    let harness = try SourcesHarness(config)
    harness.maildir("/home/u/Mail")
    for file in files { harness.place("/home/u/Mail/" + file) }
    harness.daemon["mail"] = daemon
    harness.startCounting()
    return harness
  }

  @Test func theFirstRecountWritesWhatTheDaemonLacks() throws {
    let harness = try SourcesHarness(Self.config)
    harness.maildir("/home/u/Mail")
    harness.place("/home/u/Mail/new/a", "/home/u/Mail/cur/b:2,S", "/home/u/Mail/cur/c:2,F", "/home/u/Mail/cur/.hidden")
    harness.daemon["mail"] = (1, 40)
    let started = harness.start()
    #expect(started.lists == ["/home/u/Mail", "/home/u/Mail/new", "/home/u/Mail/cur"])
    #expect(started.requests.isEmpty)
    let connected = harness.connect()
    #expect(connected.requests.first == .attach)
    #expect(connected.requests.dropFirst().first == .claim(source: "mail", channel: Self.mail, onClear: .seen))
    #expect(connected.writes == ["SET mail 2 new=1 id=src-7f3a91c2:1"])
    harness.answerWrites()
    #expect(harness.daemon["mail"]! == (2, 41))
    #expect(harness.logs == ["Source mail: counting.", "Source mail: recounting.", "Source mail: recounted."])
  }

  @Test func aDeliveryIsWrittenAtOnceAndCountsOnce() throws {
    let harness = try Self.counting(["new/a"])
    #expect(harness.daemon["mail"]! == (1, 1))
    let delivered = harness.read(harness.move("/home/u/Mail/tmp/b", to: "/home/u/Mail/new/b"))
    #expect(delivered.writes == ["SET mail 2 new=1 id=src-7f3a91c2:2"])
    harness.answerWrites()
    #expect(harness.daemon["mail"]! == (2, 2))
  }

  @Test func aFlagChangeLowersTheCount() throws {
    let harness = try Self.counting(["new/a", "cur/c:2,F"])
    // A client reads c: a rename inside cur/.
    let read = harness.read(harness.move("/home/u/Mail/cur/c:2,F", to: "/home/u/Mail/cur/c:2,FS"))
    #expect(read.writes == ["SET mail 1 new=0 id=src-7f3a91c2:2"])
    // Another client moves a to cur/ unread: no write at all.
    #expect(harness.answerWrites().writes.isEmpty)
    #expect(harness.read(harness.move("/home/u/Mail/new/a", to: "/home/u/Mail/cur/a:2,")).writes.isEmpty)
    #expect(harness.daemon["mail"]! == (1, 2))
  }

  @Test func aBurstIsCoalescedIntoOneWrite() throws {
    let harness = try Self.counting([])
    let first = harness.read(harness.create("/home/u/Mail/new/m0"))
    #expect(first.writes == ["SET mail 1 new=1 id=src-7f3a91c2:2"])
    for index in 1..<100 { #expect(harness.read(harness.create("/home/u/Mail/new/m\(index)")).writes.isEmpty) }
    let answered = harness.answerWrites()
    #expect(answered.writes.isEmpty)
    #expect(answered.contains(.armTimer(at: harness.time.boottime + 50_000)))
    #expect(harness.advance(ms: 49).writes.isEmpty)
    #expect(harness.advance(ms: 1).writes == ["SET mail 100 new=99 id=src-7f3a91c2:3"])
    harness.answerWrites()
    #expect(harness.daemon["mail"]! == (100, 100))
  }

  @Test func anOverflowRecounts() throws {
    let harness = try Self.counting(["new/a", "new/b"])
    // Changes whose events were lost.
    _ = harness.move("/home/u/Mail/new/a", to: "/home/u/Mail/cur/a:2,S")
    _ = harness.create("/home/u/Mail/new/c")
    _ = harness.create("/home/u/Mail/new/d")
    let recounted = harness.read([("mail", .overflow)])
    #expect(recounted.lists == ["/home/u/Mail", "/home/u/Mail/new", "/home/u/Mail/cur"])
    #expect(recounted.writes == ["SET mail 3 new=2 id=src-7f3a91c2:2"])
    harness.answerWrites()
    #expect(harness.daemon["mail"]! == (3, 4))
    // Said once, so that a missed change is never silent.
    #expect(
      harness.logs.filter { $0.contains("overflowed") } == [
        "Source mail: missed changes (the inotify queue overflowed); recounting."
      ])
  }

  /// `STATUS=` follows the sources' states: one line per change of the summary, none while it
  /// stays the same (a recount that ends as it began is two lines, the same error again none).
  @Test func theServiceStatusFollowsTheStates() throws {
    let harness = try SourcesHarness(Self.config)
    harness.maildir("/home/u/Mail")
    harness.place("/home/u/Mail/new/a")
    let statuses = { (actions: [SourceAction]) in
      actions.compactMap { action -> String? in
        if case .status(let text) = action { return text }
        return nil
      }
    }
    #expect(statuses(harness.start()) == ["Running 1 source: 1 waiting", "Running 1 source: 1 ok"])
    #expect(statuses(harness.connect()) == ["Running 1 source: 1 recounting", "Running 1 source: 1 ok"])
    #expect(statuses(harness.read(harness.create("/home/u/Mail/new/b"))).isEmpty)
    // A file where the Maildir was: an error, said once.
    var replaced = harness.move("/home/u/Mail", to: "/home/u/gone")
    replaced += harness.create("/home/u/Mail")
    #expect(statuses(harness.read(replaced)) == ["Running 1 source: 1 recounting", "Running 1 source: 1 error"])
  }

  @Test func aReplacedFolderIsRecounted() throws {
    let harness = try Self.counting(["cur/a:2,", "cur/b:2,"])
    var events = harness.move("/home/u/Mail/cur", to: "/home/u/old-cur")
    events += harness.create("/home/u/Mail/cur", directory: true)
    harness.listAtOnce = false
    harness.read(events)
    // Listed anew, and a message delivered between the watch and the listing.
    #expect(harness.listings.map(\.path) == ["/home/u/Mail"])
    harness.place("/home/u/Mail/cur/c:2,")
    let written = harness.answerListings()
    #expect(written.writes == ["SET mail 1 new=1 id=src-7f3a91c2:2"])
    harness.answerWrites()
    #expect(harness.daemon["mail"]! == (1, 3))
  }

  @Test func aMissingRootIsWaitedForThenCounted() throws {
    let harness = try SourcesHarness(Self.config)
    harness.mkdir("/home/u")
    harness.startCounting()
    #expect(harness.logs == ["Source mail: waiting for /home/u/Mail."])
    #expect(
      harness.sent.contains(
        .status(
          SourceStatus(
            name: "mail", kind: "maildir", state: .waiting, channels: 1, count: 0, changed: 1_764_620_000_000))))
    #expect(harness.watches == [["mail", ".."]: "/home/u"])
    // The root appears, a Maildir already (moved in whole).
    harness.maildir("/tmp/made")
    harness.place("/tmp/made/new/a")
    let appeared = harness.read(harness.move("/tmp/made", to: "/home/u/Mail"))
    #expect(appeared.lists == ["/home/u/Mail", "/home/u/Mail/new", "/home/u/Mail/cur"])
    #expect(appeared.writes == ["SET mail 1 new=1 id=src-7f3a91c2:2"])
    #expect(harness.watches[["mail", ".."]] == nil)
    #expect(harness.logs.last == "Source mail: counting.")
  }

  @Test func aFileWhereTheRootShouldBeIsAnError() throws {
    let harness = try SourcesHarness(Self.config)
    harness.mkdir("/home/u")
    harness.place("/home/u/Mail")
    harness.start()
    harness.connect()
    #expect(harness.logs.contains("Source mail: error: /home/u/Mail is not a directory."))
    #expect(
      harness.sent.contains { request in
        if case .source(_, .status(let status)) = request.request {
          return status.state == .error && status.error == "/home/u/Mail is not a directory"
        }
        return false
      })
  }

  @Test func markReadRenamesExactlyWhatTheBadgeShowed() throws {
    let harness = try Self.counting(["new/a", "cur/c:2,F", "cur/r:2,S"], config: Self.markRead)
    #expect(harness.daemon["mail"]! == (2, 2))
    // e arrives and its write is on its way when the click comes.
    #expect(harness.read(harness.create("/home/u/Mail/new/e")).writes.count == 1)
    let clicked = harness.run(.daemon(.cleared(Self.mail, upto: 2)))
    #expect(
      clicked.renames.sorted() == [
        "/home/u/Mail/cur/c:2,F -> /home/u/Mail/cur/c:2,FS", "/home/u/Mail/new/a -> /home/u/Mail/cur/a:2,S",
      ])
    harness.answerWrites()
    harness.readRenames()
    harness.advance(ms: 50)
    harness.answerWrites()
    #expect(harness.daemon["mail"]!.count == 1)
    #expect(harness.folders["/home/u/Mail/new"] == ["e": false])
  }

  @Test func aClickOnASeenSourceRenamesNothing() throws {
    let harness = try Self.counting(["new/a"])
    #expect(harness.run(.daemon(.cleared(Self.mail, upto: 1))).renames.isEmpty)
  }

  @Test func aReconnectionSendsTheUnansweredWriteFirstWithItsID() throws {
    let harness = try Self.counting(["new/a"])
    #expect(harness.read(harness.create("/home/u/Mail/new/b")).writes == ["SET mail 2 new=1 id=src-7f3a91c2:2"])
    harness.disconnect(appliedFirst: true)
    let again = harness.connect()
    #expect(
      again.requests.prefix(3) == [
        .attach, .claim(source: "mail", channel: Self.mail, onClear: .seen),
        .report(channel: Self.mail, count: 2, arrived: 1, unseen: nil, id: "src-7f3a91c2:2"),
      ])
    harness.answerWrites()
    harness.advance(ms: 50)
    harness.answerWrites()
    // Counted once.
    #expect(harness.daemon["mail"]! == (2, 2))
  }

  @Test func aResumeRecountsOnce() throws {
    let harness = try Self.counting(["new/a"])
    let resumed = harness.run(.resumed(.logind))
    #expect(resumed.lists == ["/home/u/Mail", "/home/u/Mail/new", "/home/u/Mail/cur"])
    #expect(harness.logs.contains("Resumed (logind): recounting every source."))
  }

  @Test func aTemplateClaimsEachFolderItFinds() throws {
    let harness = try SourcesHarness(Self.perFolder)
    harness.maildir("/home/u/Mail")
    harness.maildir("/home/u/Mail/.Lists.rust")
    harness.maildir("/home/u/Mail/.Sent")
    harness.place("/home/u/Mail/new/a", "/home/u/Mail/.Lists.rust/new/b", "/home/u/Mail/.Sent/new/c")
    harness.startCounting()
    #expect(
      harness.sent.filter { $0.claimed != nil } == [
        .claim(source: "mail", channel: ChannelName("mail:INBOX")!, onClear: .seen),
        .claim(source: "mail", channel: ChannelName("mail:Lists.rust")!, onClear: .seen),
      ])
    #expect(harness.daemon["mail:INBOX"]! == (1, 1) && harness.daemon["mail:Lists.rust"]! == (1, 1))
    #expect(harness.daemon["mail:Sent"] == nil)
  }

  @Test func theDaemonsReloadReachesTheSources() throws {
    let harness = try Self.counting([])
    #expect(harness.run(.daemon(.reloaded)) == [.reloadConfig])
  }

  @Test func aVerbatimLayoutIsSearchedAndItsLaterFoldersFound() throws {
    let harness = try SourcesHarness(Self.perFolder)
    // mbsync's SubFolders Verbatim: the root is no Maildir, folders nest.
    harness.maildir("/home/u/Mail/INBOX")
    harness.maildir("/home/u/Mail/Lists/rust")
    harness.maildir("/home/u/Mail/Archive")
    harness.place("/home/u/Mail/INBOX/new/a", "/home/u/Mail/Lists/rust/cur/b:2,", "/home/u/Mail/Archive/new/c")
    harness.startCounting()
    #expect(harness.daemon["mail:INBOX"]! == (1, 1) && harness.daemon["mail:Lists.rust"]! == (1, 1))
    #expect(harness.daemon["mail:Archive"] == nil)
    // A folder made later, its Maildir moved in whole.
    harness.maildir("/tmp/swift")
    harness.place("/tmp/swift/new/d", "/tmp/swift/new/e")
    let moved = harness.read(harness.move("/tmp/swift", to: "/home/u/Mail/Lists/swift"))
    #expect(moved.requests.contains(.claim(source: "mail", channel: ChannelName("mail:Lists.swift")!, onClear: .seen)))
    harness.run(.daemon(.claimed(ChannelName("mail:Lists.swift")!, count: 0, total: 0)))
    harness.answerWrites()
    #expect(harness.daemon["mail:Lists.swift"]! == (2, 2))
  }
}
