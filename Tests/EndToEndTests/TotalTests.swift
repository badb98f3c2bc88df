import BadgePersistence
import Foundation
import Testing

/// Running totals against the real daemon: the sum of increases, kept with the count across a
/// kill, a restart, a compaction and a reload; clears up to a total clear once, whoever sends them.
@Suite struct TotalTests {
  static func total(_ channel: String, _ client: RawClient) throws -> String? {
    field(try client.request("GET \(channel)")[0], "total")
  }

  @Test func theTotalIsTheSumOfIncreasesAcrossAKillARestartACompactionAndAReload() throws {
    let folder = try TemporaryFolder()
    // A setting keeps the channel at 0, and its total with it.
    var daemon: DaemonProcess? = try DaemonProcess(folder: folder, config: "[channel ci]\nstep = 2\n")
    let client = try daemon!.client()
    var totals: [String] = []
    for line in ["INCR ci 5", "DECR ci 2", "SET ci 10", "INCR ci 1", "CLEAR ci"] {
      let reply = try client.request(line)
      totals.append("\(field(reply[0], "count")!)/\(field(reply[0], "total")!)")
    }
    #expect(totals == ["5/5", "3/5", "10/12", "11/13", "0/13"])
    daemon!.crash()  // the journal holds the changes
    daemon = nil
    let replayed = try DaemonProcess(folder: folder, config: "[channel ci]\nstep = 2\n")
    #expect(try Self.total("ci", replayed.client()) == "13")
    #expect(replayed.stop() == 0)  // a compaction: the snapshot holds the whole state, the journal none
    let snapshot = Snapshot.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: replayed.stateFile("snapshot")))))
    #expect(snapshot.problem == nil)
    #expect(snapshot.snapshot.channels.map { "\($0.name)=\($0.count)/\($0.total)" } == ["ci=0/13"])
    let journal = [UInt8](try Data(contentsOf: URL(fileURLWithPath: replayed.stateFile("journal"))))
    #expect(RecordFile.scan(journal, magic: RecordFile.journalMagic).records.isEmpty)
    let compacted = try DaemonProcess(folder: folder, config: "[channel ci]\nstep = 2\n")
    let reader = try compacted.client()
    #expect(try Self.total("ci", reader) == "13")
    #expect(try field(reader.request("GET ci")[0], "count") == "0")
    // A reload that changes the channel's settings keeps its total; one that drops its section
    // forgets the channel at 0, and its total stays in the floor a channel made anew starts at.
    _ = try folder.write("badged.conf", "[channel ci]\nstep = 3\n")
    #expect(try reader.request("RELOAD") == ["OK reloaded"])
    #expect(try Self.total("ci", reader) == "13")
    _ = try folder.write("badged.conf", "")
    #expect(try reader.request("RELOAD") == ["OK reloaded"])
    #expect(try reader.request("LIST") == ["OK"])
    #expect(try field(reader.request("INCR ci")[0], "total") == "14")
  }

  /// A clear up to a total shown before a channel was forgotten, sent after a restart (a
  /// machine that was away forwards it, or a script): the channel made anew since keeps every
  /// item, whether the daemon stopped cleanly (the snapshot keeps the floor) or was killed (the
  /// journal's forget raises it again).
  @Test(arguments: [true, false])
  func aStaleClearAfterAForgetAndARestartClearsNothing(killed: Bool) throws {
    var daemon: DaemonProcess? = try DaemonProcess()
    let folder = daemon!.folder
    let client = try daemon!.client()
    #expect(try field(client.request("INCR mail 3")[0], "total") == "3")
    #expect(
      try client.request("CLEAR mail") == [
        "STATE mail count=0 label= dot=0 pulse=0 muted=0 seq=2 badge=count dnd=off unseen=0 total=3", "OK",
      ])
    if killed { daemon!.crash() } else { #expect(daemon!.stop() == 0) }
    daemon = nil
    let restarted = try DaemonProcess(folder: folder)
    let again = try restarted.client()
    #expect(try field(again.request("GET mail")[0], "total") == "3", "never written: at the floor")
    let new = try again.request("INCR mail 5")[0]
    #expect(field(new, "count") == "5" && field(new, "total") == "8", "\(new)")
    let stale = try again.request("CLEAR mail upto=3")[0]
    #expect(field(stale, "count") == "5" && field(stale, "seq") == "3", "no change: \(stale)")
    #expect(try currentCount("mail", socket: restarted.socket) == 5)
    // A clear up to the new channel's total clears what it says.
    #expect(try field(again.request("CLEAR mail upto=6")[0], "count") == "2")
  }

  /// Two clients were shown the same state and clear up to it: the second clear changes
  /// nothing, so the two are one clear, and what arrived after the state stays.
  @Test func twoClientsClearingUpToTheSameTotalClearOnce() throws {
    let daemon = try DaemonProcess()
    let (first, second) = (try daemon.client(), try daemon.client())
    _ = try first.request("INCR mail 5")
    let shown = try second.request("GET mail")[0]
    #expect(field(shown, "total") == "5")
    _ = try first.request("INCR mail 2")
    let cleared = try first.request("CLEAR mail upto=5")[0]
    let again = try second.request("CLEAR mail upto=5")[0]
    #expect(field(cleared, "count") == "2" && field(cleared, "seq") == "3")
    #expect(withoutPulse(again) == withoutPulse(cleared), "the second clear changed nothing")
    #expect(try currentCount("mail", socket: daemon.socket) == 2)
  }
}
