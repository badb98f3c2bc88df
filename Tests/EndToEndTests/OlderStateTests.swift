import Foundation
import TestSupport
import Testing

/// State folders an older badged wrote (Tests/EndToEndTests/Fixtures/OlderState, README.md
/// there): the daemon of this checkout, started on a copy of each, answers every request of
/// `queries` exactly as the daemon that wrote them did (`replies`): counts, settings, totals,
/// request ids answered `OK repeated` (so their requests' canonical forms are unchanged), the
/// mirrors, and the forwarded writes `FORWARDS` hands out, byte for byte.
@Suite struct OlderStateTests {
  static let fixtures = "Tests/EndToEndTests/Fixtures/OlderState"

  @Test(arguments: ["killed", "stopped"])
  func aStateFolderAnOlderVersionWroteReadsAsItDid(_ fixture: String) throws {
    let folder = try TemporaryFolder()
    let state = folder.file("state")
    try FileManager.default.createDirectory(
      atPath: state, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    for file in ["snapshot", "journal"] {
      try FileManager.default.copyItem(
        atPath: Repository.path("\(Self.fixtures)/\(fixture)/\(file)"), toPath: state + "/" + file)
    }
    let start = Int(Date().timeIntervalSince1970) - 1
    let daemon = try DaemonProcess(folder: folder, config: "")
    let connections = ["client": try daemon.client(), "bridge": try daemon.client()]
    var answered: [String] = []
    let queries = try String(contentsOfFile: Repository.path("\(Self.fixtures)/queries"), encoding: .utf8)
    for query in queries.split(separator: "\n") where !query.hasPrefix("#") {
      let (who, text) = (query.prefix { $0 != " " }, query.drop { $0 != " " }.dropFirst())
      let connection = try #require(connections[String(who)], "\(query)")
      answered.append("> " + query)
      answered += try connection.request(String(text)).map { "< " + Self.normalized($0, since: start) }
    }
    let replies = try String(
      contentsOfFile: Repository.path("\(Self.fixtures)/\(fixture)/replies"), encoding: .utf8)
    let expected = replies.split(separator: "\n").map(String.init)
    #expect(answered.count == expected.count)
    for (got, wanted) in zip(answered, expected) { #expect(got == wanted) }
    #expect(!daemon.log.contains("damaged"), "\(daemon.log)")
  }

  /// A mirror fresh when saved is stale from the start of the daemon that loads it: its
  /// `since=` is that start, written `since=<start>` in `replies`.
  static func normalized(_ line: String, since start: Int) -> String {
    line.split(separator: " ", omittingEmptySubsequences: false).map { word in
      guard word.hasPrefix("since="), let second = Int(word.dropFirst(6)), second >= start else { return word }
      return "since=<start>"
    }.joined(separator: " ")
  }
}
