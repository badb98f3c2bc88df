import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What badged-sources holds after churn, counted in `/proc`: after 20 reloads that restart its
/// source and 20 replacements of its Maildir (`rm -rf` and made again), exactly the inotify
/// watches a single Maildir needs and the file descriptors it had at start; after 60 runs of
/// exec commands, no child left, zombie or not.
@Suite struct SourcesLeakTests {
  /// A single Maildir's watches: the root (`new/` and `cur/` made or replaced), `new/` and
  /// `cur/`.
  static let maildirWatches = 3

  @Test func reloadsAndReplacedFoldersLeaveNoWatchAndNoDescriptorBehind() throws {
    let folder = try TemporaryFolder()
    var maildir = try TestMaildir(in: folder)
    try maildir.deliver()
    let config = { (coalesce: Int) in
      "[source.inbox]\nkind = maildir\npath = \(maildir.root)\ncoalesce_ms = \(coalesce)\n"
    }
    let stage = try SourcesFixture(folder: folder, config: config(50))
    try stage.awaitEvent("inbox", count: 1)
    let pid = stage.sources.pid
    #expect(ProcFacts.inotifyWatches(pid) == Self.maildirWatches, "\(stage.context)")
    let fds = ProcFacts.fds(pid).count

    // Each reload changes the source's spec: it is stopped (its watches dropped) and started.
    for round in 1...20 {
      try stage.reload(config(50 + round))
      try stage.awaitStatus("inbox") { $0.contains(" state=ok ") }
    }
    // Each replacement: the root gone (waiting, 0), then made again holding `round % 3 + 1`.
    var count = 1
    for round in 1...20 {
      try FileManager.default.removeItem(atPath: maildir.root)
      try stage.awaitEvent("inbox", count: 0)
      maildir = try TestMaildir(in: folder)
      count = round % 3 + 1
      for _ in 0..<count { try maildir.deliver() }
      try stage.awaitEvent("inbox", count: count)
    }
    try stage.awaitStatus("inbox") { $0.contains(" state=ok ") && $0.contains(" count=\(count) ") }
    #expect(
      waitUntil { ProcFacts.inotifyWatches(pid) == Self.maildirWatches },
      "watches: \(ProcFacts.inotifyWatches(pid))\n\(stage.context)")
    #expect(waitUntil { ProcFacts.fds(pid).count == fds }, "fds: \(ProcFacts.fds(pid).count), at start \(fds)")
    #expect(stage.sources.stop() == 0)
  }

  /// Ten exec sources run six times each (at start, again once connected, then four reloads
  /// that change their command): 60 runs, counted on their channels, and no child left behind.
  @Test func sixtyExecRunsLeaveNoChildBehind() throws {
    let folder = try TemporaryFolder()
    let runs = folder.file("runs")
    let command = try folder.script("count", "echo run >> \(runs)\necho $1\n")
    let config = { (round: Int) in
      (0..<10).map { "[source.job\($0)]\nkind = exec\ncommand = \(command) \(round)\ninterval_s = 3600\n" }
        .joined(separator: "\n")
    }
    let stage = try SourcesFixture(folder: folder, config: config(1))
    let pid = stage.sources.pid
    for round in 1...5 {
      if round > 1 { try stage.reload(config(round)) }
      for job in 0..<10 { try stage.awaitEvent("job\(job)", count: round) }
      // The connection's runs (printing the same count) end before the next reload.
      if round == 1 { #expect(waitUntil { ExecSourceTests.lines(runs) == 20 && ProcFacts.children(pid).isEmpty }) }
    }
    #expect(ExecSourceTests.lines(runs) == 60)
    #expect(waitUntil { ProcFacts.children(pid).isEmpty }, "children: \(ProcFacts.children(pid))")
    #expect(stage.sources.stop() == 0)
  }
}
