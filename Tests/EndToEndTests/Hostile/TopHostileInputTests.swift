import Foundation
import Testing

/// `badgectl top` in tmux fed garbage by a `HostileServer`: its memory stays bounded, it says
/// when it leaves channels out, a statistics reply past every limit shows only its figures,
/// and once the server behaves the dashboard shows its state.
@Suite(.serialized) struct TopHostileInputTests {
  @Test func garbageKeepsTopsMemoryBoundedAndItRecovers() throws {
    let sent = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let server = try HostileServer(parts: [
      { connection in
        try HostileInput.answerWatchWithGarbage(connection)
        sent.signal()
        // The panel's request, answered with a reply no daemon sends.
        let request = try connection.readLine(startingWith: "STATS ")
        try connection.send(HostileInput.statsReply(for: HostileInput.channel(0), arrivals: 42))
        guard request == "STATS week \(HostileInput.channel(0))" else { throw TestFailure("asked '\(request)'") }
        _ = proceed.wait(timeout: .now() + 300)
      },
      HostileInput.answerWatchWithMail,
    ])
    defer {
      proceed.signal()
      server.stop()
    }
    let pane = try TopPane(folder: server.folder, socket: server.socket)
    var pid: Int32?
    _ = waitUntil {
      pid = try? pane.topPID()
      return pid != nil
    }
    let top = try #require(pid, "top did not start: \(pane.screen)")

    let first = HostileInput.channel(0)
    // The screen is polled (a process each time) only for the end of the garbage.
    #expect(sent.wait(timeout: .now() + 300) == .success, "the garbage was not read: \(server.problems)")
    pane.wait("the last event after the garbage", timeout: 60) { _ in pane.row(0).contains("\(first)  7") }
    pane.wait("one word about the channels left out") {
      $0.contains(
        "Showing at most \(HostileInput.shownChannels) channels; ignoring "
          + "'\(HostileInput.channel(HostileInput.shownChannels))' and any more."
      )
    }
    try expectPeak(of: top, "top, after the garbage")

    // The statistics of the selected channel: only the figures for it, over the week.
    try pane.keys("s")
    pane.wait("the figures of the reply", timeout: 60) { $0.contains("▐ week ▌") && $0.contains(" 42      2   42") }

    // The server goes away and comes back well-behaved: top shows its state. (Its first
    // channel now, so 1 selects it.)
    proceed.signal()
    pane.wait("mail", timeout: 60) { _ in pane.row(0).contains("mail  3") }
    try pane.keys("1")
    pane.wait("mail, selected") { _ in pane.row(3).hasPrefix("    mail ") }
    try expectPeak(of: top, "top, after recovering")
    #expect(server.problems.isEmpty, "\(server.problems)")

    try pane.keys("q")
    pane.wait("the exit status") { $0.contains("EXIT=0") }
  }
}

/// Checks the peak resident memory of a client fed garbage (`VmHWM`) against
/// `HostileInput.peakMiB`, and prints it so that a run of the suite reports it.
func expectPeak(of pid: Int32, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
  let peak = try memoryKiB(pid)
  print("hostile input: \(what): peak RSS \(peak / 1024) MiB (\(peak) KiB), bound \(HostileInput.peakMiB) MiB")
  #expect(peak < HostileInput.peakMiB << 10, "peak RSS \(peak) KiB", sourceLocation: sourceLocation)
}
