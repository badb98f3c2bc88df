import BadgeLog
import BadgePOSIX
import BadgeSystem
import BadgeWeb
import CMicroHTTPD
import Glibc

/// badged-web's HTTP server: one libmicrohttpd daemon per listen address, run from the
/// program's sd-event loop (no thread of libmicrohttpd's): each daemon's epoll descriptor is
/// watched, and a timer follows `MHD_get_timeout`, so the program sleeps while nothing happens.
///
/// Requests go to `handler` with a `Responder`, which may answer later (a write waits for
/// badged's reply): the connection is suspended until then. An event stream is a response
/// pulled from an `EventStreamSource` as the client's socket takes it; a stream with nothing to
/// send is suspended, and `wakeStreams()` resumes them when there is news.
///
/// Limits against slow and idle peers (DESKTOP.md): `limits.connections` at once, each with
/// `limits.connectionMemory` for its request, idle ones closed after `limits.timeoutSeconds`,
/// bodies over `limits.bodyBytes` answered 413 before they are read.
final class HTTPServer {
  struct Limits {
    var connections: UInt32 = 16384
    var connectionMemory = 16 * 1024
    /// Seconds a connection may stay idle (an event stream is never idle: keep-alives).
    var timeoutSeconds: UInt32 = 60
    var bodyBytes = WebReply.maxBodyBytes
  }

  /// A listen address with what its daemon needs.
  struct Listener {
    var socket: ListenSocket
    /// PEM texts of the certificate chain and its key, for HTTPS.
    var tls: (certificate: String, key: String)?
  }

  typealias Handler = (HTTPRequest, Responder) -> Void

  let limits: Limits
  let logger: Logger
  let handler: Handler
  private let loop: EventLoop
  private(set) var daemons: [HTTPDaemon] = []
  /// The open event streams.
  private var streamObjects: [ObjectIdentifier: HTTPEventStream] = [:]
  /// Requests whose answer is awaited, suspended.
  private var waiting: [ObjectIdentifier: HTTPExchange] = [:]
  /// Set while stopping: streams end, waiting requests get 503.
  private(set) var closing = false
  /// A run asked for from inside a run of libmicrohttpd: done when that run ends.
  private var runAgain = false
  private var running = false

  init(loop: EventLoop, listeners: [Listener], limits: Limits, logger: Logger, handler: @escaping Handler)
    throws(SystemError)
  {
    self.loop = loop
    self.limits = limits
    self.logger = logger
    self.handler = handler
    for listener in listeners {
      daemons.append(try HTTPDaemon(server: self, loop: loop, listener: listener))
    }
  }

  /// Starts serving: the daemons run once, so connections made before are taken.
  func start() {
    run()
  }

  /// Runs every daemon: what is ready is served, and each daemon's timer follows its timeout.
  /// Called from inside a run (a responder answering at once), it runs again after that one.
  func run() {
    if running {
      runAgain = true
      return
    }
    running = true
    repeat {
      runAgain = false
      for daemon in daemons { daemon.run() }
    } while runAgain
    running = false
  }

  /// Resumes every suspended event stream, so that each reads what is new (or suspends again),
  /// then runs the daemons: a resumed stream is written only by a run (DESKTOP.md).
  func wakeStreams() {
    var resumed = false
    for stream in streamObjects.values where stream.resume() { resumed = true }
    if resumed { run() }
  }

  /// Stops serving: every stream ends, every waiting request is answered 503, the connections
  /// close, and the daemons stop. libmicrohttpd aborts the process when a daemon stops with a
  /// connection suspended, so none is left so.
  func stop() {
    guard !closing else { return }
    closing = true
    for stream in streamObjects.values { _ = stream.resume() }
    for exchange in waiting.values { exchange.resumeForClosing() }
    run()
    run()
    for daemon in daemons { daemon.stop() }
    daemons = []
  }

  // MARK: - Kept by the exchanges and streams

  func register(_ stream: HTTPEventStream) {
    streamObjects[ObjectIdentifier(stream)] = stream
  }

  func unregister(_ stream: HTTPEventStream) {
    streamObjects[ObjectIdentifier(stream)] = nil
  }

  func suspended(_ exchange: HTTPExchange) {
    waiting[ObjectIdentifier(exchange)] = exchange
  }

  func resumed(_ exchange: HTTPExchange) {
    waiting[ObjectIdentifier(exchange)] = nil
  }

  /// A line of libmicrohttpd's own (a failed accept, a TLS handshake refused).
  func libraryLog(_ text: String) {
    var line = Substring(text)
    while line.last == "\n" { line.removeLast() }
    logger.debug("libmicrohttpd: \(line)")
  }
}

/// One libmicrohttpd daemon on one listen socket, on the loop.
final class HTTPDaemon {
  unowned let server: HTTPServer
  let secure: Bool
  let name: String
  private(set) var raw: OpaquePointer?
  private var io: IOSource?
  private var timer: TimerSource?
  private let loop: EventLoop
  /// The PEM texts, which libmicrohttpd reads from our memory.
  private var keyPEM: [CChar]
  private var certificatePEM: [CChar]

  init(server: HTTPServer, loop: EventLoop, listener: HTTPServer.Listener) throws(SystemError) {
    self.server = server
    self.loop = loop
    secure = listener.tls != nil
    name = listener.socket.name
    keyPEM = Array((listener.tls?.key ?? "").utf8CString)
    certificatePEM = Array((listener.tls?.certificate ?? "").utf8CString)
    var flags = MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
    if secure { flags |= MHD_USE_TLS.rawValue }
    if listener.socket.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
    let limits = server.limits
    let started: OpaquePointer? = keyPEM.withUnsafeBufferPointer { key in
      certificatePEM.withUnsafeBufferPointer { certificate in
        var settings = badged_mhd_settings(
          flags: UInt32(flags), listen_fd: listener.socket.fd.rawValue, connection_limit: limits.connections,
          memory_limit: limits.connectionMemory, timeout_seconds: limits.timeoutSeconds,
          key_pem: secure ? key.baseAddress : nil, cert_pem: secure ? certificate.baseAddress : nil,
          handler: HTTPExchange.accessHandler, handler_cls: Unmanaged.passUnretained(self).toOpaque(),
          completed: HTTPExchange.completedHandler, completed_cls: nil,
          logger: HTTPDaemon.logHandler, logger_cls: Unmanaged.passUnretained(server).toOpaque())
        return badged_mhd_start(&settings)
      }
    }
    guard let started else {
      listener.socket.fd.close()
      throw SystemError("start the HTTP server on '\(name)'", Errno(rawValue: EINVAL))
    }
    raw = started
    let epoll = badged_mhd_epoll_fd(started)
    do {
      timer = try loop.addTimer { [unowned self] in server.run() }
      io = try loop.addIO(fd: FileDescriptor(rawValue: epoll), events: .readable) { [unowned self] _ in
        server.run()
      }
    } catch {
      MHD_stop_daemon(started)
      raw = nil
      throw error
    }
  }

  /// One run of libmicrohttpd (never blocks), then the timer set from its timeout.
  func run() {
    guard let raw else { return }
    _ = MHD_run(raw)
    var milliseconds: UInt64 = 0
    if MHD_get_timeout(raw, &milliseconds) == .YES {
      timer?.schedule(at: loop.now + UInt64(milliseconds) * 1000)
    } else {
      timer?.disarm()
    }
  }

  func stop() {
    io?.cancel()
    timer?.cancel()
    io = nil
    timer = nil
    if let raw { MHD_stop_daemon(raw) }
    raw = nil
  }

  static let logHandler: MHD_LogCallback = { cls, format, arguments in
    guard let cls, let format, let arguments else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    var buffer = [CChar](repeating: 0, count: 512)
    _ = badged_mhd_format(&buffer, buffer.count, format, arguments)
    server.libraryLog(String(cString: buffer))
  }
}
