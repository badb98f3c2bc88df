import Foundation
import Testing

/// Issue 31, test 2: the page's stream resumes exactly (each missed change once, in order) after
/// badged-web restarts and after the page's own connection drops, while changes happen; a gap
/// older than what badged keeps gives `reset` and a snapshot, and the page ends right all the same.
@Suite(.serialized) struct WebPageResumeTests {
  @Test func thePageReceivesEachMissedChangeOnceOrAResetAndSnapshot() throws {
    let stage = try WebStage()
    try stage.send(["INCR mail", "INCR chat"])
    let browser = try BrowserScenario("resume", stage: stage)
    let opened = try browser.until("expect")
    let base = opened.first { $0.hasPrefix("snapshot ") }.flatMap { Int($0.dropFirst(9)) } ?? -1
    #expect(base == 2, "\(opened)")

    // badged-web restarts while 100 changes happen: 50 while it is away, 50 after.
    #expect(stage.stopWeb() == 0, "\(stage.log)")
    try stage.send((0..<50).map { $0.isMultiple(of: 2) ? "INCR mail" : "INCR chat" })
    try stage.startWeb()
    try stage.send((0..<50).map { $0.isMultiple(of: 2) ? "INCR mail" : "INCR chat" })
    try browser.answer("mail=51 chat=51")
    var result = try browser.until("expect")
    #expect(result.first?.hasPrefix("reached") == true, "\(result)")
    #expect(result.contains("log changes=100 distinct=100 resets=0 snapshots=1"), "\(result)")
    #expect(ids(result) == Array(3...102), "\(result)")
    #expect(result.contains("status live"), "\(result)")

    // The page's connection drops (closed and opened again from its last id) while 100 happen.
    try browser.answer("drop")
    #expect(try browser.next() == "dropped")
    try stage.send((0..<100).map { $0.isMultiple(of: 2) ? "INCR mail" : "INCR chat" })
    try browser.until("expect")
    try browser.answer("mail=101 chat=101")
    result = try browser.until("expect")
    #expect(result.contains("log changes=200 distinct=200 resets=0 snapshots=1"), "\(result)")
    #expect(ids(result) == Array(3...202), "\(result)")

    // A gap older than the 1024 changes badged keeps: reset, then a snapshot.
    #expect(stage.stopWeb() == 0, "\(stage.log)")
    try stage.send((0..<1100).map { $0.isMultiple(of: 2) ? "INCR mail" : "INCR chat" })
    try stage.startWeb()
    try browser.answer("mail=651 chat=651")
    result = try browser.until("expect")
    #expect(result.first?.hasPrefix("reached") == true, "\(result)")
    // No change event for the gap (the snapshot after the reset carries it), none twice.
    #expect(result.contains("log changes=200 distinct=200 resets=1 snapshots=2"), "\(result)")
    try browser.answer("done")
    #expect(try browser.rest().status == 0)
  }

  /// The change ids the page logged, in the order it received them.
  func ids(_ lines: [String]) -> [Int] {
    lines.first { $0.hasPrefix("ids ") }?.dropFirst(4).split(separator: ",").compactMap { Int($0) } ?? []
  }
}
