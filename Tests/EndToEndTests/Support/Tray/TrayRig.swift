import Foundation

/// What every tray test starts with: a daemon whose channels do not pulse (so that only a
/// change moves a badge), a private session bus, and the background processes of a tray host,
/// all in the daemon's folder.
final class TrayRig {
  /// No pulse window for the channels the tray tests use: frames come from the change alone.
  static let stillChannels = "[channel mail]\npulse_ms = 0\n[channel ci]\npulse_ms = 0\n"

  let daemon: DaemonProcess
  let bus: SessionBus
  let background: Background

  init(daemonConfig: String = TrayRig.stillChannels) throws {
    daemon = try DaemonProcess(config: daemonConfig)
    bus = try SessionBus(folder: daemon.folder)
    background = Background(folder: daemon.folder)
  }

  var socket: String { daemon.socket }

  /// Starts the built badged-tray with `tray` as its config's `[tray]` section.
  func tray(_ tray: String = "items = mail\n") throws -> TrayProgram {
    try TrayProgram(daemon: daemon, bus: bus, tray: tray)
  }

  /// Starts the recording watcher on the rig's bus.
  func watcher() throws -> TrayWatcher { try TrayWatcher(bus: bus, folder: daemon.folder) }

  /// Starts the recording watcher, then badged-tray with `tray`, and waits until its first
  /// item has registered.
  func registeredTray(_ tray: String = "items = mail\n") throws -> (TrayWatcher, TrayProgram) {
    let watcher = try self.watcher()
    let program = try self.tray(tray)
    let registered = try watcher.registration(of: program.item(1))
    guard registered.item == program.item(1) else { throw TestFailure("\(registered): \(program.log)") }
    return (watcher, program)
  }

  /// Runs `badgectl` against the rig's daemon; fails unless it succeeds. Its output.
  @discardableResult
  func ctl(_ arguments: String...) throws -> String {
    let result = try badgectl(arguments, socket: daemon.socket)
    guard result.status == 0 else { throw TestFailure("badgectl \(arguments): \(result.stderr)") }
    return result.stdout
  }
}

/// The built badged-tray on a rig's daemon and bus (run as badged-sources is: SourcesProcess).
final class TrayProgram {
  private let process: SourcesProcess

  init(daemon: DaemonProcess, bus: SessionBus, tray: String) throws {
    let config = try daemon.folder.write("tray-\(UUID().uuidString.prefix(6)).conf", "[tray]\n" + tray)
    process = try SourcesProcess(
      folder: daemon.folder, config: config, socket: daemon.socket, arguments: ["--log-level", "debug"],
      environment: bus.environment,
      executable: Binaries.badgedTray.path)
  }

  /// The bus name of the `n`-th item (1, 2, … in the order of `items`).
  func item(_ n: Int = 1) -> String { "org.kde.StatusNotifierItem-\(process.pid)-\(n)" }

  var log: String { process.log }

  /// How many frames the item of `pattern` has drawn: its debug log says each one
  /// ("Tray item mail: frame drawn in …"), before it signals NewIcon.
  func framesDrawn(_ pattern: String) -> Int {
    log.components(separatedBy: "Tray item \(pattern): frame drawn").count - 1
  }

  var isRunning: Bool { process.isRunning }

  /// Its exit status if it ends by itself within `timeout` seconds, else nil (it is left running).
  func exitStatus(within timeout: Double) -> Int32? {
    waitUntil(timeout: timeout) { !process.isRunning } ? process.stop() : nil
  }
}
