import Foundation
import Testing

/// `badgectl watch`: snapshot, events, offline and reconnect.
@Suite struct WatchCommandTests {
  @Test func printsTheSnapshotThenEveryChange() throws {
    let daemon = try DaemonProcess()
    _ = try badgectl(["set", "mail", "2"], socket: daemon.socket)
    let watch = try WatchProcess(["mail", "ci"], socket: daemon.socket)
    // Plain output (not a terminal): one line per update for every channel, those at 0 left out.
    #expect(try watch.readLine() == "mail 2")
    _ = try badgectl(["incr", "ci", "3"], socket: daemon.socket)
    #expect(try watch.readLine() == "ci 3 mail 2", "channels keep the snapshot's order")
    #expect(watch.stop() == 0)
  }

  @Test func goesOfflineAndComesBackWithAFreshSnapshotAfterARestart() throws {
    var daemon: DaemonProcess? = try DaemonProcess()
    let folder = daemon!.folder
    let socket = daemon!.socket
    _ = try badgectl(["set", "mail", "4"], socket: socket)
    let watch = try WatchProcess(["mail", "--format", "json"], socket: socket)
    let first = try watch.readLine()
    #expect(first.contains("\"count\":4") && first.contains("\"online\":true"))
    daemon!.stop()
    let offline = try watch.readLine()
    #expect(offline.contains("\"channel\":\"mail\"") && offline.contains("\"online\":false"))
    #expect(offline.contains("\"count\":4"), "the last known count")
    daemon = nil
    // While the daemon is away the watcher keeps running and prints nothing more.
    usleep(300_000)
    #expect(watch.isRunning)
    let restarted = try DaemonProcess(folder: folder)
    _ = try badgectl(["set", "mail", "9"], socket: restarted.socket)
    let back = try watch.readLine(timeout: 10) { $0.contains("\"count\":9") }
    #expect(back.contains("\"online\":true"))
    #expect(watch.stop() == 0)
  }

  @Test func startsOfflineWhenNoDaemonRunsAndConnectsLater() throws {
    let folder = try TemporaryFolder()
    let socket = folder.file("badged.sock")
    let watch = try WatchProcess(["app:*", "--format", "json"], socket: socket)
    let offline = try watch.readLine()
    #expect(offline.contains(#""channel":"app:*","count":0"#) && offline.contains(#""online":false"#))
    let daemon = try DaemonProcess(folder: folder)
    _ = try badgectl(["incr", "app:x"], socket: daemon.socket)
    let back = try watch.readLine(timeout: 10) { $0.contains(#""channel":"app:x","count":1"#) }
    #expect(back.contains(#""online":true"#))
    #expect(watch.stop() == 0)
  }

  @Test func exitsWhenItsReaderGoesAway() throws {
    let daemon = try DaemonProcess()
    let watch = try Child(
      [Binaries.badgectl.path, "watch", "mail"], environment: ["BADGED_SOCKET": daemon.socket], stdout: .pipe)
    var byte: UInt8 = 0
    _ = read(watch.output, &byte, 1)  // the snapshot has arrived
    watch.closeOutput()
    _ = try badgectl(["incr", "mail"], socket: daemon.socket)
    #expect(waitUntil(timeout: 5) { !watch.isRunning })
  }
}
