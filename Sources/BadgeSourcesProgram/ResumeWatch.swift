import BadgeCore
import BadgeLog
import BadgeSources
import BadgeSystem
import Glibc

/// Notices that the machine resumed from suspend, or that the program may have missed
/// changes, and says so once per resume: logind's `PrepareForSleep(false)` on the system bus,
/// the boot clock's gap grown on a wakeup of the loop (`CLOCK_BOOTTIME` goes on in a suspend,
/// `CLOCK_MONOTONIC` does not; exec sources' timers on `CLOCK_BOOTTIME` wake the loop after a
/// sleep, else the first event does), and SIGCONT as the program tells it (`continued()`).
/// The causes go through the sources' `ResumeDetector`, which merges those of one resume.
///
/// No system bus (a container, a machine without D-Bus) is not a fault: one debug line, and
/// the clock gap alone tells resumes. Nothing here polls.
public final class ResumeWatch {
  /// logind's signal, as the match rule asks for it: only from the owner of
  /// `org.freedesktop.login1`, which only logind may own on a real system bus.
  public static let matchRule =
    "type='signal',sender='org.freedesktop.login1',path='/org/freedesktop/login1',"
    + "interface='org.freedesktop.login1.Manager',member='PrepareForSleep'"

  private let clock: () -> SourceTime
  private var detector: ResumeDetector
  private let onResume: (ResumeCause, SourceTime) -> Void
  private var bus: BusConnection?
  private var match: BusSlot?
  private var wakeups: EventSource?

  /// Starts watching on `loop`.
  ///
  /// - Parameters:
  ///   - busAddress: the system bus (`BusConnection.systemAddress`: `DBUS_SYSTEM_BUS_ADDRESS`,
  ///     else D-Bus's socket); `nil` for none.
  ///   - clock: the clocks of a wakeup (`ResumeWatch.now`; a test's own to make a gap).
  ///   - onResume: once per resume, with its first cause and the clocks then: recount.
  /// - Throws: `SystemError` when the loop cannot watch its wakeups.
  public init(
    loop: EventLoop, busAddress: String? = BusConnection.systemAddress, logger: Logger,
    clock: @escaping () -> SourceTime = ResumeWatch.now, onResume: @escaping (ResumeCause, SourceTime) -> Void
  ) throws(SystemError) {
    self.clock = clock
    self.onResume = onResume
    detector = ResumeDetector(at: clock())
    wakeups = try loop.addPost { [unowned self] in wokeUp() }
    guard let busAddress else { return }
    do throws(SystemError) {
      let bus = try BusConnection.system(loop: loop, description: "badged-sources-resume", address: busAddress)
      match = try bus.addMatch(Self.matchRule) { [unowned self] message in prepareForSleep(message) }
      self.bus = bus
    } catch {
      logger.debug("No system bus, so no resume from logind; the boot clock's gap tells resumes (\(error)).")
    }
  }

  deinit {
    match?.cancel()
    wakeups?.cancel()
  }

  /// Whether logind's signal is watched (a system bus was reached).
  public var watchesLogind: Bool { match != nil }

  /// The system bus connection, when one was reached.
  public var connection: BusConnection? { bus }

  /// The program was continued after a stop (SIGCONT): it may have missed changes.
  public func continued() {
    report(.continued)
  }

  /// The clocks now: monotonic and boot time read together, and the wall clock.
  public static func now() -> SourceTime {
    let clocks = BootClock.read()
    var wall = timespec()
    clock_gettime(CLOCK_REALTIME, &wall)
    return SourceTime(
      monotonic: clocks.monotonic, boottime: clocks.boottime,
      wallMs: Int64(wall.tv_sec) * 1000 + Int64(wall.tv_nsec) / 1_000_000)
  }

  private func wokeUp() {
    let time = clock()
    if let cause = detector.wakeup(at: time) { onResume(cause, time) }
  }

  /// `PrepareForSleep(b)`: true before the sleep, false after the resume.
  private func prepareForSleep(_ message: BusMessage) {
    guard message.arguments() == [.boolean(false)] else { return }
    report(.logind)
  }

  private func report(_ cause: ResumeCause) {
    let time = clock()
    if let cause = detector.signalled(cause, at: time) { onResume(cause, time) }
  }
}
