import Foundation
import TestSupport

/// A notmuch set-up of a test's own (SOURCES.md, "notmuch in a folder of its own"): a Maildir and
/// a notmuch config naming it, in a temporary folder, and the real `notmuch` run with
/// `NOTMUCH_CONFIG` pointing at that config (never the user's). The database is made by the
/// first `notmuch("new")`.
struct TestNotmuch {
  let mail: String
  let config: String
  private var serial = 0

  init(in folder: TemporaryFolder) throws {
    mail = folder.file("Mail")
    config = folder.file("notmuch-config")
    for sub in ["cur", "new", "tmp"] {
      try FileManager.default.createDirectory(atPath: mail + "/" + sub, withIntermediateDirectories: true)
    }
    let text = NotmuchConfig.text(mail: mail)
    try text.write(toFile: config, atomically: true, encoding: .utf8)
  }

  /// The environment that points notmuch, and badged-sources' notmuch sources, at this set-up.
  var environment: [String: String] { ["NOTMUCH_CONFIG": config] }

  /// Delivers a message (written in `tmp/`, renamed into `new/`) with the id `nm<n>@example.org`;
  /// its id, without `id:`. `notmuch new` indexes it.
  @discardableResult
  mutating func deliver() throws -> String {
    serial += 1
    let name = "\(serial).test"
    let text = "From: a@example.org\nSubject: \(serial)\nMessage-ID: <nm\(serial)@example.org>\n\nx\n"
    try text.write(toFile: mail + "/tmp/" + name, atomically: false, encoding: .utf8)
    try FileManager.default.moveItem(atPath: mail + "/tmp/" + name, toPath: mail + "/new/" + name)
    return "nm\(serial)@example.org"
  }

  /// Runs `notmuch` with `arguments` on this set-up; what it printed, trimmed. A failure throws.
  @discardableResult
  func notmuch(_ arguments: String...) throws -> String {
    let result = try run("/usr/bin/notmuch", arguments, environment: environment)
    guard result.status == 0 else { throw TestFailure("notmuch \(arguments): \(result.status) \(result.stderr)") }
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// `notmuch count` of `query`.
  func count(_ query: String) throws -> Int {
    let printed = try notmuch("count", query)
    guard let count = Int(printed) else { throw TestFailure("notmuch count printed '\(printed)'") }
    return count
  }

  /// The ids `notmuch search --output=messages` finds for `query`, sorted, without `id:`.
  func ids(_ query: String) throws -> [String] {
    try notmuch("search", "--output=messages", query).split(separator: "\n").map { String($0.dropFirst(3)) }.sorted()
  }
}
