import Foundation
import TestSupport
import Testing

/// The example commands of contrib/sources, each run for real by the built badged-sources as
/// an `exec` source: their counts are the ones this test works out itself from what each
/// counts (a todo.txt, newsboat's cache filled by the real newsboat, apt's simulation,
/// systemd's failed units or, where there is no systemd, the error the source shows).
@Suite struct ContribSourcesTests {
  static let scripts = ["apt-updates", "failed-units", "newsboat-unread", "todo-txt"]

  /// The command line of contrib/sources/`name` with `arguments`, run by sh.
  static func command(_ name: String, _ arguments: String = "") -> String {
    "/bin/sh " + Repository.path("contrib/sources/" + name) + (arguments.isEmpty ? "" : " " + arguments)
  }

  /// A source `name` running `command` every second.
  static func source(_ name: String, _ command: String) -> String {
    "[source.\(name)]\nkind = exec\ncommand = \(command)\ninterval_s = 1\n"
  }

  @Test(arguments: scripts) func eachExampleIsAnExecutableShellScript(_ name: String) throws {
    let path = Repository.path("contrib/sources/" + name)
    #expect(FileManager.default.isExecutableFile(atPath: path), "\(path) is not executable")
    #expect(try run("/bin/sh", ["-n", path]).status == 0)
  }

  @Test func todoTxtCountsTheOpenTasks() throws {
    let folder = try TemporaryFolder()
    let todo = try folder.write("todo.txt", "(A) call Ana\nx 2026-12-01 pay rent\n\n   \nwater plants +home\n")
    let stage = try SourcesFixture(folder: folder, config: Self.source("todo", Self.command("todo-txt", todo)))
    try stage.awaitEvent("todo", count: 2)
    try "(A) call Ana\nx 2026-12-01 pay rent\n\nwater plants +home\nbook trains @travel\n".write(
      toFile: todo, atomically: true, encoding: .utf8)
    try stage.awaitEvent("todo", count: 3)
    try "x call Ana\nx 2026-12-01 pay rent\nwater plants +home\nbook trains @travel\n".write(
      toFile: todo, atomically: true, encoding: .utf8)
    try stage.awaitEvent("todo", count: 2)
    #expect(stage.sources.stop() == 0, "\(stage.context)")
  }

  /// newsboat's cache, filled by newsboat from a feed of the test's own (`exec:` URL), counted
  /// while it holds three and then five unread articles, as `newsboat -x print-unread` says.
  @Test func newsboatUnreadCountsWhatNewsboatSays() throws {
    let folder = try TemporaryFolder()
    let feed = folder.file("feed.xml")
    let urls = try folder.write("urls", "\"exec:cat \(feed)\"\n")
    let settings = try folder.write("newsboat.conf", "")
    let cache = folder.file("cache.db")
    func fill(_ items: Int) throws {
      let entries = (1...items).map { "<item><title>n\($0)</title><guid>n\($0)</guid></item>" }.joined()
      try
        ("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>t</title><link>http://example.org/</link>"
        + "<description>d</description>\(entries)</channel></rss>").write(
          toFile: feed, atomically: true, encoding: .utf8)
      let reload = try run(
        "newsboat", ["-u", urls, "-c", cache, "-C", settings, "-x", "reload", "print-unread"],
        environment: ["HOME": folder.path])
      #expect(reload.stdout == "\(items) unread articles\n", "\(reload.stdout)\(reload.stderr)")
    }
    try fill(3)
    let stage = try SourcesFixture(folder: folder, config: Self.source("news", Self.command("newsboat-unread", cache)))
    try stage.awaitEvent("news", count: 3)
    try fill(5)
    try stage.awaitEvent("news", count: 5)
    #expect(stage.sources.stop() == 0, "\(stage.context)")
  }

  /// apt's simulated upgrade, counted as the test counts its `Inst` lines.
  @Test func aptUpdatesCountsTheSimulatedUpgrade() throws {
    let simulation = try run("apt-get", ["-s", "-q", "-o", "Debug::NoLocking=1", "upgrade"])
    #expect(simulation.status == 0, "\(simulation.stderr)")
    let pending = simulation.stdout.split(separator: "\n").count { $0.hasPrefix("Inst ") }
    let stage = try SourcesFixture(config: Self.source("updates", Self.command("apt-updates")))
    try stage.awaitEvent("updates", count: pending)
    #expect(stage.sources.stop() == 0, "\(stage.context)")
  }

  /// systemd's failed units where systemd can be asked (system and user manager); else the
  /// source is in error, its channel stale, rather than showing a 0 it does not know.
  @Test func failedUnitsCountsWhatSystemdSaysOrShowsThatItCannotAsk() throws {
    let listing = ["list-units", "--state=failed", "--plain", "--no-legend", "--no-pager"]
    let system = try run("systemctl", listing)
    let user = try run("systemctl", ["--user"] + listing)
    let stage = try SourcesFixture(config: Self.source("failed", Self.command("failed-units")))
    if system.status == 0 && user.status == 0 {
      let failed = (system.stdout + user.stdout).split(separator: "\n").count { !$0.isEmpty }
      try stage.awaitEvent("failed", count: failed)
    } else {
      let status = try stage.awaitStatus("failed") { $0.contains(" state=error ") }
      #expect(status.contains(" error="), "\(status)")
      try stage.awaitEvent("failed", count: 0, stale: true)
    }
    #expect(stage.sources.stop() == 0, "\(stage.context)")
  }
}
