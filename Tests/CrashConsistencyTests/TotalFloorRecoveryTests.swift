import BadgeConfig
import BadgeDaemon
import BadgeLog
import BadgePersistence
import BadgeSystem
import Glibc
import Testing

@testable import BadgeCore

/// The total floor after loading is the floor before a crash: the snapshot keeps it, and the
/// journal's records of changes that forgot channels after it raise it again on replay.
@Suite struct TotalFloorRecoveryTests {
  /// Loads `snapshot` and `journal` (either `nil`: no such file) with `Recovery.load` into a
  /// new store made with `config`.
  static func load(snapshot: [UInt8]?, journal: [UInt8]?, config: DaemonConfig = DaemonConfig()) throws -> Store {
    var template = Array("/tmp/badged-floor-XXXXXX".utf8CString)
    guard mkdtemp(&template) != nil else { throw SystemError("mkdtemp", .current) }
    let folder = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer {
      for name in ["snapshot", "journal"] { FileSystem.remove(folder + "/" + name) }
      rmdir(folder)
    }
    for (name, bytes) in [("snapshot", snapshot), ("journal", journal)] {
      guard let bytes else { continue }
      let file = try AppendOnlyFile(path: folder + "/" + name, truncate: true)
      try file.append(bytes)
      file.close()
    }
    let store = Store(config: config.channels)
    let quiet = Logger(level: .emergency, destination: .standardError(priorityPrefix: false))
    try Recovery.load(snapshot: folder + "/snapshot", journal: folder + "/journal", into: store, logger: quiet)
    return store
  }

  /// Applies `changes` to `store`, returning the journal records of those that changed it, as
  /// the daemon writes them.
  static func journal(_ changes: [(Store.Mutation, String)], on store: Store) throws -> [UInt8] {
    var bytes: [UInt8] = []
    for (mutation, channel) in changes {
      let outcome = try store.apply(mutation, to: #require(ChannelName(channel)), now: 0)
      if outcome.changed { RecordCodec.append(outcome.channel, day: outcome.day, id: nil, to: &bytes) }
    }
    return bytes
  }

  static let header = RecordFile.header(magic: RecordFile.journalMagic)

  @Test func theSnapshotsFloorAndTheJournalsForgetsAfterItAreLoaded() throws {
    let store = Store()
    _ = try Self.journal(
      [(.write(.incr(30)), "mail"), (.write(.clear(upTo: nil)), "mail"), (.write(.incr(4)), "chat")], on: store)
    let snapshot = Snapshot(of: store).encoded()
    #expect(store.totalFloor == 30)
    // After the snapshot: chat forgotten at 34, mail made anew at 35 … 37 and forgotten.
    let after = try Self.journal(
      [
        (.write(.clear(upTo: nil)), "chat"), (.write(.incr(3)), "mail"), (.write(.set(0)), "mail"),
        (.write(.incr(1)), "news"),
      ], on: store)
    #expect(store.totalFloor == 37)
    let loaded = try Self.load(snapshot: snapshot, journal: Self.header + after)
    #expect(loaded.totalFloor == 37)
    #expect(Snapshot(of: loaded).channels == Snapshot(of: store).channels)
    #expect(loaded.channel(named: ChannelName("news")!).total == 38)
    // The snapshot alone: its floor, though no channel it holds has that total.
    #expect(try Self.load(snapshot: snapshot, journal: nil).totalFloor == 30)
    // The journal alone (no compaction yet): its forgets.
    let fresh = Store()
    let whole = try Self.journal([(.write(.incr(30)), "mail"), (.write(.clear(upTo: nil)), "mail")], on: fresh)
    #expect(try Self.load(snapshot: nil, journal: Self.header + whole).totalFloor == 30)
  }

  /// A channel whose section was taken away while the daemon was stopped is forgotten as its
  /// last record loads; one a section made, never written, starts at the snapshot's floor.
  @Test func loadingWithAnotherConfigKeepsTheFloorRight() throws {
    var config = DaemonConfig()
    config.sections = [ChannelSection(pattern: ChannelPattern("ci")!, override: SettingsOverride(), line: 1)]
    let store = Store(config: config.channels)
    let journal = try Self.journal(
      [
        (.write(.incr(8)), "ci"), (.write(.clear(upTo: nil)), "ci"), (.write(.incr(50)), "mail"),
        (.write(.clear(upTo: nil)), "mail"),
      ],
      on: store)
    #expect(store.totalFloor == 50)
    let unconfigured = try Self.load(snapshot: nil, journal: Self.header + journal)
    #expect(unconfigured.totalFloor == 50 && unconfigured.channels.isEmpty)
    // ci's section gone, mail's new: a never written mail starts at the floor.
    var renamed = DaemonConfig()
    renamed.sections = [ChannelSection(pattern: ChannelPattern("mail")!, override: SettingsOverride(), line: 1)]
    let fromSnapshot = try Self.load(snapshot: Snapshot(of: store).encoded(), journal: nil, config: renamed)
    #expect(fromSnapshot.totalFloor == 50)
    #expect(fromSnapshot.channel(named: ChannelName("mail")!).total == 50)
    #expect(fromSnapshot.channel(named: ChannelName("ci")!).hasConfigSection == false)
    #expect(fromSnapshot.listed.map(\.name.description) == ["mail"])
  }
}
