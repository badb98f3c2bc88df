import BadgeSystem
import Foundation
import Glibc

/// A `dbus-daemon --session` of the test's own in a temporary folder, listening once the
/// initialiser returns (the daemon prints its address only then), ended when released.
final class PrivateBus {
  let address: String
  private let pid: pid_t

  init(in folder: TemporaryFolder) throws {
    address = "unix:path=\(folder.file("bus"))"
    let printed = try FileDescriptor.pipe(nonBlockingRead: false, nonBlockingWrite: false)
    pid = try ChildProcess.spawn(
      ["/usr/bin/dbus-daemon", "--session", "--address=\(address)", "--nofork", "--print-address"],
      output: .separate(output: printed.write, errors: .standardError))
    printed.write.close()
    defer { printed.read.close() }
    var line: [UInt8] = []
    var byte: UInt8 = 0
    while line.last != UInt8(ascii: "\n"), Glibc.read(printed.read.rawValue, &byte, 1) == 1 { line.append(byte) }
    guard line.last == UInt8(ascii: "\n") else { throw POSIXError(.EIO) }
  }

  deinit {
    kill(pid, SIGTERM)
    var status: CInt = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
  }

  /// A connection to this bus on `loop`.
  func connect(_ loop: EventLoop, _ description: String = "test") throws -> BusConnection {
    try BusConnection.connect(to: address, loop: loop, description: description)
  }

  /// Runs the python3-dbus program `body` (with `bus`, this bus's connection, and `dbus` in
  /// scope; `show(value)` prints a reply as JSON, a D-Bus error as `error <name>`) while `loop`
  /// serves the bus, and returns what it printed once it ended.
  func python(_ body: String, on loop: EventLoop) throws -> String {
    let program = """
      import sys, json, dbus, dbus.bus
      bus = dbus.bus.BusConnection(sys.argv[1])
      def plain(value):
          if value is None: return None
          if isinstance(value, (bytes, bytearray)): return list(value)
          if isinstance(value, (list, tuple)): return [plain(item) for item in value]
          if isinstance(value, dict): return {str(key): plain(item) for key, item in value.items()}
          if isinstance(value, dbus.Boolean): return bool(value)
          if isinstance(value, str): return str(value)
          if isinstance(value, float): return float(value)
          return int(value)
      def call(interface, member, signature, *arguments, path="/test"):
          try:
              reply = bus.call_blocking(
                  "io.github.badged.Test", path, interface, member, signature, arguments, byte_arrays=True)
              print(json.dumps(plain(reply)), flush=True)
          except dbus.DBusException as error:
              print("error " + error.get_dbus_name(), flush=True)

      """
    return try loop.output(of: ["/usr/bin/python3", "-c", program + body, address])
  }
}

extension EventLoop {
  /// Runs `arguments` while this loop runs (it serves what the program asks) and returns what
  /// the program printed on its standard output and error, once it closed them.
  func output(of arguments: [String]) throws -> String {
    let pipe = try FileDescriptor.pipe(nonBlockingRead: true, nonBlockingWrite: false)
    let pid = try ChildProcess.spawn(arguments, output: .descriptor(pipe.write))
    pipe.write.close()
    defer {
      pipe.read.close()
      var status: CInt = 0
      while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }
    var printed: [UInt8] = []
    var ended = false
    let source = try addIO(fd: pipe.read, events: .readable) { _ in
      var chunk = [UInt8](repeating: 0, count: 65536)
      let n = chunk.withUnsafeMutableBytes { Glibc.read(pipe.read.rawValue, $0.baseAddress, $0.count) }
      if n > 0 { printed += chunk[..<n] } else if n == 0 || errno != EAGAIN { ended = true }
    }
    defer { source.cancel() }
    try turn { ended }
    return String(decoding: printed, as: UTF8.self)
  }

  /// Runs turns of the loop until `done()` (checked after each), for at most 20 seconds.
  func turn(until done: () -> Bool) throws {
    let deadline = Environment.monotonicMicroseconds + 20_000_000
    while !done() {
      guard Environment.monotonicMicroseconds < deadline else { throw POSIXError(.ETIMEDOUT) }
      try runOnce(timeout: 1_000_000)
    }
  }
}
