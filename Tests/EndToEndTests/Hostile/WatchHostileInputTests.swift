import Foundation
import Testing

/// `badgectl watch` fed garbage by a `HostileServer`: its memory stays bounded, it says once
/// that it leaves channels out, clicks that are never answered stop sending once the requests
/// awaiting replies reach their limit, and once the server behaves it shows the server's state.
@Suite struct WatchHostileInputTests {
  @Test func garbageKeepsWatchsMemoryBoundedAndItRecovers() throws {
    let proceed = DispatchSemaphore(value: 0)
    let clicked = DispatchSemaphore(value: 0)
    let cleared = HostileInput.channelsWithUnreadItems
    let server = try HostileServer(parts: [
      { connection in
        try HostileInput.answerWatchWithGarbage(connection)
        // Each click's CLEARs, one for each channel shown with unread items, read and never
        // answered.
        for _ in 0..<2 {
          for _ in 0..<cleared { _ = try connection.readLine(startingWith: "CLEAR ") }
          clicked.signal()
        }
        _ = proceed.wait(timeout: .now() + 300)
      },
      HostileInput.answerWatchWithMail,
    ])
    defer {
      proceed.signal()
      server.stop()
    }
    let errors = server.folder.file("watch.err")
    var environment = Child.environment([:])
    environment["BADGED_SOCKET"] = server.socket
    let watch = try Child(
      [Binaries.badgectl.path, "watch", "--format", "plain", "--no-motion", "--template", "{channel}={label}"],
      environment: environment, stdout: .pipe, stderr: .file(errors))
    var output = LineInput(fd: watch.output)
    /// Reads the watcher's lines until one shows `shown` among its channels. Its first line
    /// comes once the garbage (over 100 MiB, made as it goes) is sent and read, which on a
    /// machine busy with the rest of the suite can take minutes.
    func read(until shown: String, _ what: String) throws {
      while let line = try output.next(timeout: 300, what: "badgectl watch") {
        if (" " + line + " ").contains(" \(shown) ") { return }
      }
      throw TestFailure("watch ended before \(what)")
    }

    try read(until: "\(HostileInput.channel(0))=7", "the last event after the garbage")
    try expectPeak(of: watch.pid, "watch, after the garbage")
    let leftOut =
      "Showing at most \(HostileInput.shownChannels) channels; ignoring "
      + "'\(HostileInput.channel(HostileInput.shownChannels))' and any more.\n"
    #expect(try String(contentsOfFile: errors, encoding: .utf8) == leftOut)

    // Two clicks send a CLEAR each for every channel with unread items, and no reply comes
    // (a signal waits for the one before it to be read: two at once would be one).
    for _ in 0..<2 {
      watch.signal(SIGUSR1)
      #expect(clicked.wait(timeout: .now() + 120) == .success, "the CLEARs did not come: \(server.problems)")
    }
    // A third would take the requests awaiting replies past their limit: nothing is sent, and
    // the watcher says so.
    #expect(2 * cleared + cleared > HostileInput.awaitedRequests && 2 * cleared <= HostileInput.awaitedRequests)
    watch.signal(SIGUSR1)
    let notAnswering = "The daemon has not answered \(2 * cleared) requests; sending no more until it does.\n"
    // A watcher on a machine busy with the rest of the suite may take its time to get to the
    // signal: this waits for what it prints, however long that takes, up to the clicks' bound.
    #expect(
      waitUntil(timeout: 120) { (try? String(contentsOfFile: errors, encoding: .utf8)) == leftOut + notAnswering },
      "\((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")

    // The server goes away and comes back well-behaved: the watcher shows its state.
    proceed.signal()
    try read(until: "mail=3", "the well-behaved server's snapshot")
    try expectPeak(of: watch.pid, "watch, after recovering")
    #expect(server.problems.isEmpty, "\(server.problems)")
    watch.signal(SIGTERM)
    #expect(watch.wait() == 0)
  }
}
