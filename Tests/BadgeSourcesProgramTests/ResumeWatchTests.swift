import BadgeLog
import BadgeSources
import BadgeSourcesProgram
import BadgeSystem
import Foundation
import Glibc
import TestSupport
import Testing

/// Resumes told by logind on a private bus standing in for the system bus, by the boot
/// clock's gap on a wakeup, and by SIGCONT; one each, however many causes report it.
@Suite struct ResumeWatchTests {
  /// A clock of the test's: each reading 3 s after the last on both clocks (so no two causes
  /// merge), plus `slept` on boot time alone.
  final class StepClock: @unchecked Sendable {
    var step: UInt64 = 3_000_000
    var monotonic: UInt64 = 1_000_000_000
    var slept: UInt64 = 0

    func read() -> SourceTime {
      monotonic += step
      return SourceTime(monotonic: monotonic, boottime: monotonic + slept, wallMs: 1_764_620_000_000)
    }
  }

  /// logind's stand-in: a python3-dbus peer owning `org.freedesktop.login1` on the bus at
  /// `argv[1]` (connecting as soon as the bus listens, then saying `ready`), emitting
  /// `PrepareForSleep(<line>)` for each line of the FIFO `argv[2]`.
  static let standIn = """
    import sys, time, dbus, dbus.bus, dbus.lowlevel
    for attempt in range(1000):  # until the bus listens (at most 10 s)
        try:
            bus = dbus.bus.BusConnection(sys.argv[1])
            break
        except dbus.DBusException:
            time.sleep(0.01)
    bus.request_name("org.freedesktop.login1")
    print("ready", flush=True)
    for line in open(sys.argv[2]):
        message = dbus.lowlevel.SignalMessage(
            "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep")
        message.append(dbus.Boolean(line.strip() == "true"))
        bus.send_message(message)
        bus.flush()
    """

  /// Ends `pid` with SIGTERM and reaps it.
  static func end(_ pid: pid_t) {
    kill(pid, SIGTERM)
    var status: CInt = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
  }

  @Test func logindsPrepareForSleepFalseIsOneResumeEach() throws {
    var template = Array("/tmp/badged-resume.XXXXXX".utf8CString)
    let folder = String(cString: try #require(mkdtemp(&template)))
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let address = "unix:path=\(folder)/system_bus_socket"
    let daemon = try ChildProcess.spawn(["/usr/bin/dbus-daemon", "--session", "--address=\(address)", "--nofork"])
    defer { Self.end(daemon) }
    let fifo = folder + "/sleep"
    #expect(mkfifo(fifo, 0o600) == 0)
    let ready = try FileDescriptor.pipe(nonBlockingRead: false, nonBlockingWrite: false)
    let login = try ChildProcess.spawn(
      ["/usr/bin/python3", "-c", Self.standIn, address, fifo],
      output: .separate(output: ready.write, errors: .standardError))
    ready.write.close()
    defer {
      ready.read.close()
      Self.end(login)
    }
    var said = [UInt8](repeating: 0, count: 6)
    var got = 0
    while got < 6 {
      let n = said.withUnsafeMutableBytes { Glibc.read(ready.read.rawValue, $0.baseAddress! + got, 6 - got) }
      guard n > 0 || (n < 0 && errno == EINTR) else { break }
      got += max(n, 0)
    }
    #expect(said == Array("ready\n".utf8), "\(got) \(String(cString: strerror(errno)))")
    let sleeps = open(fifo, O_WRONLY)
    defer { close(sleeps) }
    func emit(_ text: String) { _ = text.withCString { Glibc.write(sleeps, $0, strlen($0)) } }

    let loop = try EventLoop()
    let clock = StepClock()
    var resumes: [ResumeCause] = []
    let watch = try ResumeWatch(
      loop: loop, busAddress: address, logger: Logger(level: .debug, sink: LogLines()), clock: clock.read
    ) { cause, _ in
      resumes.append(cause)
      if resumes.count == 1 { emit("false\n") } else { loop.exit(code: 0) }
    }
    #expect(watch.watchesLogind)
    // Once the bus answers a call sent after the match, the match is in place: then the
    // stand-in goes to sleep (ignored) and wakes up (a resume), and wakes up once more.
    let call = try watch.connection?.callMethod(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
      member: "GetId", { _ in }, reply: { _ in emit("true\nfalse\n") })
    let guardTimer = try loop.addTimer(at: loop.now + 10_000_000) { loop.exit(code: 1) }
    #expect(try loop.run() == 0)
    withExtendedLifetime(call) {}
    guardTimer.cancel()
    #expect(resumes == [.logind, .logind])
  }

  @Test func theClockGapOnAWakeupAndSIGCONTAreResumesOnceEach() throws {
    let loop = try EventLoop()
    let clock = StepClock()
    var resumes: [(ResumeCause, UInt64)] = []
    let watch = try ResumeWatch(
      loop: loop, busAddress: nil, logger: Logger(level: .debug, sink: LogLines()), clock: clock.read
    ) { cause, time in resumes.append((cause, time.boottime - time.monotonic)) }
    #expect(!watch.watchesLogind)
    // A wakeup with no sleep behind it; then one after 5 s asleep; then SIGCONT right after
    // it (the same resume) and SIGCONT 3 s later (another).
    var turn = 0
    var timer: TimerSource?
    timer = try loop.addTimer(at: loop.now) {
      turn += 1
      switch turn {
      case 1: clock.slept = 5_000_000
      case 2:
        clock.step = 100_000
        watch.continued()
        clock.step = 3_000_000
        watch.continued()
      default:
        loop.exit(code: 0)
        return
      }
      timer?.schedule(at: loop.now)
    }
    #expect(try loop.run() == 0)
    #expect(resumes.map(\.0) == [.clockGap, .continued])
    #expect(resumes.map(\.1) == [5_000_000, 5_000_000])
  }

  @Test func noSystemBusIsOneDebugLine() throws {
    let loop = try EventLoop()
    let lines = LogLines()
    let watch = try ResumeWatch(
      loop: loop, busAddress: "unix:path=/nonexistent/system_bus_socket", logger: Logger(level: .debug, sink: lines)
    ) { _, _ in }
    #expect(!watch.watchesLogind)
    #expect(lines.lines.count == 1)
    #expect(lines.lines.first?.hasPrefix("No system bus, so no resume from logind;") == true, "\(lines.lines)")
  }
}
