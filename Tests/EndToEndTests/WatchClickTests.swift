import Foundation
import Testing

/// Clicks: SIGUSR1 (polybar's `kill -USR1 %pid%`) and i3blocks' click lines clear what the
/// watcher shows.
@Suite struct WatchClickTests {
  @Test func sigusr1ClearsTheNamedChannelsAndTheShownOnesAGlobMatches() throws {
    let daemon = try DaemonProcess()
    for (name, count) in [("mail", "2"), ("app:a", "3"), ("other", "4")] {
      try badgectl(["set", name, count], socket: daemon.socket)
    }
    let watch = try WatchProcess(["mail", "app:*", "--format", "json"], socket: daemon.socket)
    _ = try watch.readLine { $0.contains(#""channel":"mail""#) }  // the snapshot is in
    kill(watch.pid, SIGUSR1)
    #expect(
      waitUntil(timeout: 5) {
        (try? currentCount("mail", socket: daemon.socket)) == 0
          && (try? currentCount("app:a", socket: daemon.socket)) == 0
      })
    #expect(try currentCount("other", socket: daemon.socket) == 4, "a channel it does not show is left alone")
    // The watcher shows the clear it caused, and keeps running.
    _ = try watch.readLine { $0.contains(#""channel":"mail","count":0"#) }
    #expect(watch.isRunning)
  }

  /// The click clears what the watcher drew: it showed 5 (total 5), two more arrived that it
  /// has not drawn (it is stopped; resumed, it finds their events and the signal together, and
  /// draws only once both are handled, in the post source that ends the loop turn), and the
  /// click leaves exactly those 2.
  @Test func aClickClearsWhatTheWatcherShowedNotWhatArrivedSince() throws {
    let daemon = try DaemonProcess()
    try badgectl(["incr", "mail", "5"], socket: daemon.socket)
    let watch = try WatchProcess(["mail", "--format", "json", "--no-motion"], socket: daemon.socket)
    _ = try watch.readLine { $0.contains(#""count":5,"#) && $0.contains(#""total":5,"#) }
    kill(watch.pid, SIGSTOP)
    try badgectl(["incr", "mail"], socket: daemon.socket)
    try badgectl(["incr", "mail"], socket: daemon.socket)
    kill(watch.pid, SIGUSR1)
    kill(watch.pid, SIGCONT)
    // The clear's event is the watcher's last line about it: count 2, total 7.
    _ = try watch.readLine { $0.contains(#""count":2,"#) && $0.contains(#""total":7,"#) }
    #expect(try currentCount("mail", socket: daemon.socket) == 2)
  }

  @Test func anI3blocksLeftClickClearsAndTheEndOfInputIsHarmless() throws {
    let daemon = try DaemonProcess()
    try badgectl(["set", "mail", "5"], socket: daemon.socket)
    let watch = try WatchProcess(["mail", "--format", "i3blocks"], socket: daemon.socket, clickInput: true)
    _ = try watch.readLine()
    func click(_ line: String) throws {
      try watch.writeInput(line + "\n")
    }
    // What i3blocks 1.4 writes for a persistent JSON block: every key of the block.
    try click(#"{"":"","name":"mail","full_text":"5","button":3,"x":10,"y":5}"#)
    usleep(300_000)
    #expect(try currentCount("mail", socket: daemon.socket) == 5, "a right click clears nothing")
    try click(#"{"":"","name":"mail","full_text":"\"button\":3","button":1,"x":10,"y":5}"#)
    #expect(waitUntil(timeout: 5) { (try? currentCount("mail", socket: daemon.socket)) == 0 })
    // The raw format writes the button alone. A click clears what the watcher has drawn (up to
    // the total it showed), so it comes once the new count is on the bar.
    try badgectl(["set", "mail", "2"], socket: daemon.socket)
    _ = try watch.readLine { $0.contains(#""full_text":"2""#) }
    try click("1")
    #expect(waitUntil(timeout: 5) { (try? currentCount("mail", socket: daemon.socket)) == 0 })

    // The bar closing the pipe neither ends the watcher nor makes it spin.
    watch.closeInput()
    usleep(200_000)
    let before = try cpuTicks(watch.pid)
    usleep(1_500_000)
    #expect(watch.isRunning)
    #expect(try cpuTicks(watch.pid) - before <= 1)
  }

  @Test func underI3blocks14TheSharedInputIsLeftAlone() throws {
    // i3blocks 1.4 hands a persistent block its own standard input, the click stream of the
    // whole bar: the watcher must not read (and so steal) other blocks' clicks from it.
    let daemon = try DaemonProcess()
    try badgectl(["set", "mail", "5"], socket: daemon.socket)
    let watch = try WatchProcess(
      ["mail", "--format", "i3blocks"], socket: daemon.socket, environment: ["BLOCK_INTERVAL": "persist"],
      clickInput: true)
    _ = try watch.readLine()
    try watch.writeInput(#"{"name":"mail","button":1}"# + "\n")
    usleep(500_000)
    #expect(try currentCount("mail", socket: daemon.socket) == 5, "the click line was read")
    #expect(watch.isRunning)
  }
}
