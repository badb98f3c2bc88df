import BadgeCore
import BadgeProtocol
import BadgeSources
import Testing

/// An imap source through `SourcesCore`: the jobs it asks of the driver, channels per folder,
/// syncs and pushes into items, the state the connections make, mark-read, resume and reload.
@Suite struct ImapSourceCoreTests {
  static let config = """
    [source.mail]
    kind = imap
    server = imaps://imap.example.org
    username = ana
    password_file = ~/.mail.pass
    folders = INBOX, Lists/*
    channel = mail:{folder}
    on_clear = mark-read
    """

  static let settings: ImapSettings = {
    var settings = ImapSettings(
      host: "imap.example.org", port: 993, security: .tls, username: "ana",
      credential: .passwordFile("/home/u/.mail.pass"))
    settings.folders = ["INBOX", "Lists/*"]
    return settings
  }()

  static func jobs(_ actions: [SourceAction], of source: String = "mail") -> [ImapJob] {
    actions.compactMap {
      if case .imap(source, let job) = $0 { return job }
      return nil
    }
  }

  static func imap(_ event: ImapEvent) -> SourceInput { .imap(source: "mail", event) }

  /// The last status the core sent for `mail`.
  static func status(_ harness: SourcesHarness) -> SourceStatus? {
    harness.sent.compactMap {
      if case .source("mail", .status(let status)) = $0.request { return status }
      return nil
    }.last
  }

  /// Started, connected, both folders connected and synced (INBOX 3 5, Lists/rust 7), the
  /// writes answered, a second later.
  static func counting(_ config: String = config) throws -> SourcesHarness {
    let harness = try SourcesHarness(config)
    #expect(jobs(harness.start()) == [.start(settings)])
    // The daemon's connection recounts: the connections prove themselves alive.
    #expect(jobs(harness.connect()) == [.check])
    harness.run(imap(.connection(folder: nil, .ok)))
    harness.run(imap(.folders(watched: ["INBOX", "Lists/rust"], unwatched: [])))
    #expect(harness.sent.compactMap(\.claimed) == [ChannelName("mail:INBOX")!, ChannelName("mail:Lists.rust")!])
    for (channel, count) in [("mail:INBOX", 0), ("mail:Lists.rust", 0)] {
      harness.run(.daemon(.claimed(ChannelName(channel)!, count: count, total: 0)))
    }
    harness.run(imap(.connection(folder: "INBOX", .ok)))
    // One folder synced is not yet a count: nothing written.
    #expect(harness.run(imap(.synced(folder: "INBOX", unseen: [5, 3]))).writes.isEmpty)
    harness.run(imap(.connection(folder: "Lists/rust", .ok)))
    let synced = harness.run(imap(.synced(folder: "Lists/rust", unseen: [7])))
    #expect(
      synced.writes == ["SET mail:INBOX 2 new=2 id=src-7f3a91c2:1", "SET mail:Lists.rust 1 new=1 id=src-7f3a91c2:2"])
    #expect(harness.logs == ["Source mail: counting."])
    harness.answerWrites()
    harness.advance(ms: 1000)
    return harness
  }

  @Test func pushesAddAndDropMessages() throws {
    let harness = try Self.counting()
    let changed = harness.run(Self.imap(.changed(folder: "INBOX", added: [9], removed: [3])))
    #expect(changed.writes == ["SET mail:INBOX 2 new=1 id=src-7f3a91c2:3"])
    harness.answerWrites()
    harness.advance(ms: 1000)
    // A resync is the folder's whole set; a folder not watched is nothing.
    #expect(
      harness.run(Self.imap(.synced(folder: "INBOX", unseen: [9]))).writes == [
        "SET mail:INBOX 1 new=0 id=src-7f3a91c2:4"
      ])
    #expect(harness.run(Self.imap(.synced(folder: "Trash", unseen: [1, 2]))).writes.isEmpty)
    #expect(harness.daemon["mail:INBOX"]! == (2, 3))
  }

  @Test func aFixedChannelAddsUpFoldersWhoseUIDsMeet() throws {
    let harness = try SourcesHarness(Self.config.replacing("channel = mail:{folder}", with: "channel = mail"))
    harness.start()
    harness.connect()
    harness.run(Self.imap(.folders(watched: ["INBOX", "Lists/rust"], unwatched: [])))
    for folder in ["INBOX", "Lists/rust"] {
      harness.run(Self.imap(.connection(folder: folder, .ok)))
      harness.run(Self.imap(.synced(folder: folder, unseen: [1, 2])))
    }
    #expect(harness.sent.last?.report?.count == 4)
    harness.answerWrites()
    harness.advance(ms: 1000)
    // One folder's resync leaves the other's messages alone.
    #expect(
      harness.run(Self.imap(.synced(folder: "INBOX", unseen: [2]))).writes == ["SET mail 3 new=0 id=src-7f3a91c2:2"])
  }

  @Test func aFailingConnectionRetriesStaleThenCountsAgain() throws {
    let harness = try Self.counting()
    let retryAt = harness.time.boottime + 30_000_000
    harness.run(
      Self.imap(.connection(folder: "Lists/rust", .failed("LOGIN refused: Authentication failed", retryAt: retryAt))))
    #expect(harness.logs.last == "Source mail: LOGIN refused: Authentication failed; retrying.")
    let status = try #require(Self.status(harness))
    #expect(status.state == .retrying && status.retryAt == Int(harness.time.wallMs) + 30_000)
    #expect(status.count == 3 && status.error == "LOGIN refused: Authentication failed" && status.kind == "imap")
    // Connecting again is still retrying; the same failure again is not logged again.
    harness.advance(ms: 30_000)
    harness.run(Self.imap(.connection(folder: "Lists/rust", .connecting)))
    harness.run(
      Self.imap(
        .connection(folder: "Lists/rust", .failed("LOGIN refused: Authentication failed", retryAt: retryAt * 2))))
    #expect(harness.logs.count == 2)
    harness.run(Self.imap(.connection(folder: "Lists/rust", .ok)))
    #expect(Self.status(harness)?.state == .retrying)
    harness.run(Self.imap(.synced(folder: "Lists/rust", unseen: [7, 8])))
    #expect(harness.logs.last == "Source mail: counting again after 2 failed attempts.")
    #expect(Self.status(harness)?.state == .ok && Self.status(harness)?.count == 4)
  }

  @Test func aFolderSyncedBeforeItsOkIsNoFurtherFailedAttempt() throws {
    let harness = try Self.counting()
    let retryAt = harness.time.boottime + 30_000_000
    harness.run(Self.imap(.connection(folder: "Lists/rust", .failed("no answer", retryAt: retryAt))))
    // The wall clock's millisecond ticks apart from the boot clock's: the same failure told
    // again keeps its retry time.
    harness.time.wallMs += 1
    harness.time.boottime += 400
    harness.run(Self.imap(.synced(folder: "Lists/rust", unseen: [7, 8])))
    #expect(Self.status(harness)?.state == .retrying)
    harness.run(Self.imap(.connection(folder: "Lists/rust", .ok)))
    #expect(harness.logs.last == "Source mail: counting again after 1 failed attempt.")
  }

  @Test func theAccountsFailureComesFirst() throws {
    let harness = try SourcesHarness(Self.config)
    harness.start()
    harness.connect()
    let retryAt = harness.time.boottime + 1_000_000
    harness.run(Self.imap(.connection(folder: nil, .failed("certificate not trusted", retryAt: retryAt))))
    #expect(harness.logs == ["Source mail: certificate not trusted; retrying."])
    #expect(Self.status(harness)?.state == .retrying)
    // A listing: the account is up; the folder's failure is the one said.
    harness.run(Self.imap(.folders(watched: ["INBOX"], unwatched: [])))
    harness.run(Self.imap(.connection(folder: "INBOX", .failed("Connection refused", retryAt: retryAt))))
    #expect(harness.logs.last == "Source mail: Connection refused; retrying.")
    harness.run(Self.imap(.connection(folder: nil, .failed("certificate not trusted", retryAt: retryAt))))
    #expect(harness.logs.last == "Source mail: certificate not trusted; retrying.")
  }

  @Test func markReadIsExactlyWhatTheBadgeShowed() throws {
    let harness = try Self.counting()
    harness.run(Self.imap(.changed(folder: "INBOX", added: [9], removed: [])))
    harness.answerWrites()
    // The click saw 3 and 5 (total 2); 9 came after.
    let clicked = harness.run(.daemon(.cleared(ChannelName("mail:INBOX")!, upto: 2)))
    #expect(Self.jobs(clicked) == [.markRead(folder: "INBOX", uids: [3, 5])])
    harness.run(Self.imap(.marked(folder: "INBOX", uids: [3, 5])))
    #expect(harness.advance(ms: 1000).writes == ["SET mail:INBOX 1 new=0 unseen=1 id=src-7f3a91c2:4"])
  }

  @Test func theDriverGetsPathsMadeAbsolute() throws {
    let harness = try SourcesHarness(Self.config + "\nca_file = ~/certs/ca.pem")
    var settings = Self.settings
    settings.caFile = "/home/u/certs/ca.pem"
    #expect(Self.jobs(harness.start()) == [.start(settings)])
  }

  @Test func aResumeChecksTheConnections() throws {
    let harness = try Self.counting()
    #expect(Self.jobs(harness.run(.resumed(.logind))) == [.check])
  }

  @Test func unwatchedFoldersAreLoggedOnce() throws {
    let harness = try SourcesHarness(Self.config)
    harness.start()
    let folders = Self.imap(.folders(watched: ["INBOX"], unwatched: ["Lists/a", "Lists/b"]))
    harness.run(folders)
    harness.run(folders)
    #expect(harness.logs == ["Source mail: max_connections = 5 leaves these folders unwatched: Lists/a, Lists/b."])
  }

  @Test func noMatchingFolderWaits() throws {
    let harness = try SourcesHarness(Self.config)
    harness.start()
    harness.connect()
    harness.run(Self.imap(.folders(watched: [], unwatched: [])))
    #expect(harness.logs == ["Source mail: waiting for a folder matching INBOX, Lists/*."])
  }

  @Test func aFolderNoLongerWatchedIsEmptied() throws {
    let harness = try Self.counting()
    let relisted = harness.run(Self.imap(.folders(watched: ["INBOX"], unwatched: [])))
    #expect(relisted.writes == ["SET mail:Lists.rust 0 new=0 id=src-7f3a91c2:3"])
  }

  @Test func aReloadThatChangesTheSettingsRestartsTheConnections() throws {
    let harness = try Self.counting()
    let changed = Self.config.replacing("username = ana", with: "username = ana2")
    var settings = Self.settings
    settings.username = "ana2"
    #expect(Self.jobs(harness.run(.reload(.success(try sources(changed))))) == [.stop, .start(settings)])
    // Unchanged: nothing; removed: stopped.
    #expect(Self.jobs(harness.run(.reload(.success(try sources(changed))))).isEmpty)
    let other = "[source.other]\nkind = exec\ncommand = true"
    #expect(Self.jobs(harness.run(.reload(.success(try sources(other))))) == [.stop])
  }
}
