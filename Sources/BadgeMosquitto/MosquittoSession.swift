import BadgeCore
import BadgeLog
import BadgeMesh
import BadgeSystem
import CMosquitto
import Glibc

/// One MQTT client on the bridge's sd-event loop, libmosquitto used without its threads:
/// its socket watched for reading, and for writing while `mosquitto_want_write` says so;
/// `mosquitto_loop_misc` (keepalive) once a second while a socket is open.
///
/// `mosquitto_connect` blocks in name resolution and in the TCP connect, so each attempt runs
/// on a thread of its own, which hands its result back through a pipe the loop watches (as
/// `BackgroundFlush` does); meanwhile the loop keeps serving the daemon and nothing touches
/// the client. The TLS handshake and the CONNACK then come through the loop like any data.
///
/// What happened is handed to `onEvent` after each library call, never from inside one.
public final class MosquittoSession {
  public enum Event {
    /// The broker accepted the connection.
    case connected(sessionPresent: Bool)
    /// An attempt failed (unreachable, refused, TLS); try again later.
    case failed(LinkFailure)
    /// An established connection ended.
    case lost(LinkFailure)
    case message(IncomingMessage)
  }

  public var onEvent: (Event) -> Void = { _ in }
  public private(set) var phase = Phase.idle
  public let options: MosquittoOptions

  public enum Phase: Equatable {
    case idle
    /// The connect thread runs: nothing may touch the client.
    case connecting
    /// The socket is open; the TLS handshake, the CONNECT and its CONNACK are under way.
    case handshaking
    case connected
  }

  private let loop: EventLoop
  private let client: MosquittoClient
  private var watch: SocketWatch?
  private var misc: TimerSource?
  private let wakeUp: CInt
  private let wakeUpWriter: CInt
  private var wakeWatch: IOSource?
  private var job: ConnectJob?
  /// The CONNACK's refusal, reported when the library then closes the connection.
  private var refusal: LinkFailure?

  public init(loop: EventLoop, options: MosquittoOptions) throws(MosquittoSetupError) {
    self.loop = loop
    self.options = options
    client = try MosquittoClient(options)
    var ends: [CInt] = [-1, -1]
    guard pipe(&ends) == 0 else {
      throw MosquittoSetupError("Failed to create a pipe: \(String(cString: strerror(errno)))")
    }
    (wakeUp, wakeUpWriter) = (ends[0], ends[1])
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, O_NONBLOCK)
    }
    do throws(SystemError) {
      wakeWatch = try loop.addIO(fd: FileDescriptor(rawValue: wakeUp), events: .readable) { [unowned self] _ in
        var byte: UInt8 = 0
        _ = read(wakeUp, &byte, 1)
        connectFinished()
      }
      misc = try loop.addTimer(accuracy: 100_000) { [unowned self] in keepalive() }
    } catch {
      throw MosquittoSetupError("Failed to watch the MQTT client: \(error)")
    }
  }

  /// The connect thread, if one runs, is left to finish on its own: the process is ending.
  deinit {
    if let job { pthread_detach(job.thread) }
    watch?.cancel()
    wakeWatch?.cancel()
    misc?.cancel()
    if job == nil {
      close(wakeUp)
      close(wakeUpWriter)
    }
  }

  public var isConnected: Bool { phase == .connected }

  /// Starts an attempt; its outcome comes as `.connected` or `.failed`.
  public func connect() {
    guard phase == .idle else { return }
    client.clearErrors()
    refusal = nil
    let job = ConnectJob(client: client, options: options, wakeUp: wakeUpWriter)
    let context = Unmanaged.passRetained(job).toOpaque()
    let status = pthread_create(
      &job.thread, nil,
      { context in
        let job = Unmanaged<ConnectJob>.fromOpaque(context!).takeRetainedValue()
        job.run()
        return nil
      }, context)
    guard status == 0 else {
      Unmanaged<ConnectJob>.fromOpaque(context).release()
      report(.failed(.unreachable("cannot start a thread to connect: \(String(cString: strerror(status)))")))
      return
    }
    self.job = job
    phase = .connecting
  }

  /// The connect thread returned: watch the socket, or report why it failed.
  private func connectFinished() {
    guard let job else { return }
    self.job = nil
    pthread_join(job.thread, nil)
    guard job.result == MOSQ_ERR_SUCCESS.rawValue else {
      phase = .idle
      report(.failed(MosquittoFailures.connect(job.result, errno: job.errno, tlsErrors: client.errorLines)))
      return
    }
    phase = .handshaking
    do throws(SystemError) {
      watch = try SocketWatch(loop: loop, socket: mosquitto_socket(client.handle)) { [unowned self] events in
        ready(events)
      }
    } catch {
      closed(MosquittoFailures.unreachable("cannot watch the socket: \(error)"))
      return
    }
    misc?.schedule(at: loop.now + 1_000_000)
    afterLibraryCall()
  }

  private func ready(_ events: IOEvents) {
    guard watch != nil else { return }
    // Read while the socket has bytes (at most 64 packets a turn), so that a burst is taken in
    // one wake-up; the handshake of TLS also moves on here.
    for _ in 0..<64 {
      let rc = mosquitto_loop_read(client.handle, 1)
      if rc != MOSQ_ERR_SUCCESS.rawValue {
        failedCall(rc)
        return
      }
      if !hasMoreInput { break }
    }
    if events.contains(.writable) || mosquitto_want_write(client.handle) {
      let rc = mosquitto_loop_write(client.handle, 1)
      if rc != MOSQ_ERR_SUCCESS.rawValue {
        failedCall(rc)
        return
      }
    }
    afterLibraryCall()
  }

  /// Whether the socket holds more bytes to read.
  private var hasMoreInput: Bool {
    var waiting: CInt = 0
    return ioctl(mosquitto_socket(client.handle), UInt(FIONREAD), &waiting) == 0 && waiting > 0
  }

  private func keepalive() {
    guard watch != nil else { return }
    let rc = mosquitto_loop_misc(client.handle)
    if rc != MOSQ_ERR_SUCCESS.rawValue {
      failedCall(rc)
      return
    }
    misc?.schedule(at: loop.now + 1_000_000)
    afterLibraryCall()
  }

  /// A library call failed: the connection is gone (its disconnect callback may have said why).
  private func failedCall(_ rc: Int32) {
    let noted = client.events.contains { if case .disconnected = $0 { return true } else { return false } }
    if !noted { client.events.append(.disconnected(rc)) }
    afterLibraryCall()
  }

  /// Hands over what the library reported, and watches for writing while it has output.
  private func afterLibraryCall() {
    let events = client.events
    client.events.removeAll()
    for event in events {
      switch event {
      case .connack(let reason, let sessionPresent):
        if reason == 0 {
          phase = .connected
          report(.connected(sessionPresent: sessionPresent))
        } else {
          refusal = MosquittoFailures.connack(reason)
        }
      case .disconnected(let rc):
        if watch != nil || phase != .idle {
          closed(
            refusal ?? MosquittoFailures.disconnect(rc, handshaking: phase != .connected, tlsErrors: client.errorLines))
          return
        }
      case .message(let message):
        report(.message(message))
      }
    }
    guard let watch, mosquitto_socket(client.handle) >= 0 else { return }
    watch.source.setEvents(mosquitto_want_write(client.handle) ? [.readable, .writable] : .readable)
  }

  /// The connection is gone: stop watching, and report the attempt failed or the link lost.
  private func closed(_ failure: LinkFailure) {
    let wasConnected = phase == .connected
    watch?.cancel()
    watch = nil
    misc?.disarm()
    client.events.removeAll()
    phase = .idle
    report(wasConnected ? .lost(failure) : .failed(failure))
  }

  private func report(_ event: Event) { onEvent(event) }

  /// Publishes with QoS 1 while connected; false when not connected or refused.
  @discardableResult
  public func publish(_ message: MeshMessage) -> Bool {
    guard phase == .connected else { return false }
    let rc = client.publish(message)
    afterLibraryCall()
    return rc == MOSQ_ERR_SUCCESS.rawValue
  }

  /// Subscribes with `qos` (0 or 1) while connected.
  public func subscribe(_ topics: [String], qos: Int32 = 1) {
    guard phase == .connected else { return }
    _ = client.subscribe(topics, qos: qos)
    afterLibraryCall()
  }

  /// Leaves the broker with the last will published (reason 4), as when the machine goes
  /// away: the others see it offline at once rather than after the keepalive.
  public func disconnect() {
    guard phase == .connected || phase == .handshaking else { return }
    _ = mosquitto_disconnect_v5(client.handle, Int32(MQTT_RC_DISCONNECT_WITH_WILL_MSG.rawValue), nil)
    _ = mosquitto_loop_write(client.handle, 1)
    client.events.removeAll()
    watch?.cancel()
    watch = nil
    misc?.disarm()
    phase = .idle
  }
}

/// The broker's socket as the loop watches it: through a duplicate of libmosquitto's
/// descriptor, which the watch owns.
///
/// libmosquitto closes its descriptor inside the call that finds the connection gone, before
/// the watch can be cancelled. Were that descriptor watched, a copy of the socket left open
/// elsewhere (a child that inherited it) would keep its epoll entry alive after the cancel
/// could no longer name it, and the loop would be handed events for a freed source. The
/// duplicate stays open until the watch is cancelled, so the cancel always removes the entry;
/// both copies are close-on-exec.
private final class SocketWatch {
  let source: IOSource
  private let fd: CInt

  init(loop: EventLoop, socket: CInt, _ handler: @escaping (IOEvents) -> Void) throws(SystemError) {
    _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
    let fd = fcntl(socket, F_DUPFD_CLOEXEC, 0)
    guard fd >= 0 else { throw SystemError("duplicate the broker's socket", Errno.current) }
    do throws(SystemError) {
      source = try loop.addIO(fd: FileDescriptor(rawValue: fd), events: .readable, handler)
    } catch {
      Glibc.close(fd)
      throw error
    }
    self.fd = fd
  }

  func cancel() {
    source.cancel()
    Glibc.close(fd)
  }
}

/// One connect attempt, on its own thread: `mosquitto_connect_bind_v5` with the CONNECT
/// properties, then a byte to the loop's pipe. It holds the client, so that a session that
/// goes away meanwhile (the process ending) does not destroy the client under the thread.
private final class ConnectJob: @unchecked Sendable {
  let client: MosquittoClient
  let options: MosquittoOptions
  let wakeUp: CInt
  var thread = pthread_t()
  /// Written by the thread, read by the loop after joining it.
  var result: Int32 = 0
  var errno: Int32 = 0

  init(client: MosquittoClient, options: MosquittoOptions, wakeUp: CInt) {
    self.client = client
    self.options = options
    self.wakeUp = wakeUp
  }

  func run() {
    var properties = MosquittoClient.connectProperties(options)
    result = mosquitto_connect_bind_v5(
      client.handle, options.host, Int32(options.port), Int32(options.keepaliveSeconds), nil, properties)
    errno = Glibc.errno
    mosquitto_property_free_all(&properties)
    var byte: UInt8 = 1
    _ = write(wakeUp, &byte, 1)
  }
}
