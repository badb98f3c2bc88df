import Foundation
import TestSupport

/// A private session bus: the real `dbus-daemon --session` on a socket in a temporary folder,
/// for the D-Bus bridge tests.
final class SessionBus {
  let socketPath: String
  var address: String { "unix:path=\(socketPath)" }
  private var child: Child?

  /// Starts a bus at `folder/bus` (or `socketPath`) and waits until it accepts connections;
  /// with `start: false` it is only set up, for a daemon that starts without a bus.
  init(folder: TemporaryFolder, socketPath: String? = nil, start: Bool = true) throws {
    self.socketPath = socketPath ?? folder.file("bus")
    if start { try self.start() }
  }

  /// The bus daemon's process id while it runs.
  var pid: Int32? { child?.pid }

  /// The variable that points a program at this bus.
  var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

  /// Starts the bus (again, after `stop`). It prints its address once it listens.
  func start() throws {
    let child = try Child(
      ["dbus-daemon", "--session", "--address=\(address)", "--nofork", "--print-address"],
      environment: Child.environment(), stdout: .pipe)
    var input = LineInput(fd: child.output)
    guard let line = try input.next(timeout: 10, what: "dbus-daemon"), line.hasPrefix("unix:path=\(socketPath)") else {
      throw TestFailure("dbus-daemon did not start")
    }
    self.child = child
  }

  /// Stops the bus: every connection to it is closed.
  func stop() {
    child?.signal(SIGTERM)
    child?.wait()
    child = nil
    try? FileManager.default.removeItem(atPath: socketPath)
  }

  deinit { stop() }

  /// Emits a LauncherEntry `Update` with gdbus (a new connection that leaves right after).
  func emitUpdate(uri: String, properties: String, path: String = "/") throws {
    let result = try run(
      "gdbus",
      [
        "emit", "--session", "--object-path", path, "--signal", "com.canonical.Unity.LauncherEntry.Update", "'\(uri)'",
        properties,
      ],
      environment: environment)
    guard result.status == 0 else { throw TestFailure("gdbus emit failed: \(result.stderr)") }
  }

  /// The process id of the connection owning `name`, or `nil` when no one owns it.
  func ownerPID(of name: String) throws -> Int32? {
    let owner = try run(
      "gdbus",
      [
        "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
        "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID", name,
      ],
      environment: environment)
    guard owner.status == 0 else { return nil }
    // "(uint32 1234,)"
    let digits = owner.stdout.split(separator: " ").last?.prefix { $0.isNumber } ?? ""
    return Int32(digits)
  }

  /// Waits until the connection owning `name` is the process `pid`.
  func waitForOwner(of name: String, pid: Int32?) throws {
    guard try waitUntil({ try ownerPID(of: name) == pid }) else {
      throw TestFailure(
        "\(name) is owned by pid \(String(describing: try ownerPID(of: name))), not \(String(describing: pid))")
    }
  }
}

/// A peer on the bus (Tests/Tools/bus-peer): a dock, an app, a notification daemon, driven by
/// commands, each answered by one line.
final class BusPeer {
  private let child: Child
  private var input: LineInput
  /// The peer's unique name on the bus.
  let uniqueName: String

  init(bus: SessionBus) throws {
    child = try Child(
      ["/usr/bin/python3", Repository.path("Tests/Tools/bus-peer")], environment: Child.environment(bus.environment),
      stdin: .pipe, stdout: .pipe)
    input = LineInput(fd: child.output)
    let ready = try input.next(timeout: 10, what: "bus-peer") ?? ""
    guard ready.hasPrefix("ready ") else { throw TestFailure("bus-peer did not start: '\(ready)'") }
    uniqueName = String(ready.dropFirst("ready ".count))
  }

  var pid: Int32 { child.pid }

  /// Sends one command; its reply.
  @discardableResult
  func send(_ command: String) throws -> String {
    let bytes = Array((command + "\n").utf8)
    guard bytes.withUnsafeBytes({ write(child.input, $0.baseAddress, $0.count) }) == bytes.count else {
      throw TestFailure("writing to bus-peer failed: errno \(errno)")
    }
    return try nextLine()
  }

  /// The next line the peer prints (a reply, or a `notified …` report).
  func nextLine() throws -> String {
    guard let line = try input.next(timeout: 10, what: "bus-peer") else { throw TestFailure("bus-peer exited") }
    return line
  }

  /// Ends the peer: it leaves the bus.
  func quit() {
    child.closeInput()
    child.wait()
  }
}

/// `dbus-monitor` on the bus, showing the signals a match rule selects, with their types.
final class BusMonitor {
  private let child: Child
  private var input: LineInput

  /// Starts it and waits until it monitors (it reports losing its own name then).
  init(bus: SessionBus, rule: String) throws {
    child = try Child(
      ["dbus-monitor", "--session", rule], environment: Child.environment(bus.environment), stdout: .pipe)
    input = LineInput(fd: child.output)
    _ = try nextLine { $0.contains("member=NameLost") }
  }

  deinit { child.signal(SIGTERM) }

  /// Reads lines until one satisfies `match`; returns it.
  @discardableResult
  func nextLine(timeout: Double = 10, _ match: (String) -> Bool) throws -> String {
    while true {
      guard let line = try input.next(timeout: timeout, what: "dbus-monitor") else {
        throw TestFailure("dbus-monitor exited")
      }
      if match(line) { return line }
    }
  }

  /// The next signal's header line and body lines, up to the next message.
  func nextSignal() throws -> [String] {
    var lines = [try nextLine { $0.hasPrefix("signal ") }]
    while let line = try input.next(timeout: 10, what: "dbus-monitor") {
      lines.append(line)
      if line == "   ]" { break }  // the end of the a{sv}
    }
    return lines
  }
}
