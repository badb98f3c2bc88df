import BadgeSystem
import Glibc

/// One connection to an IMAP server, for a thread of its own: blocking calls with timeouts over
/// a non-blocking socket, plain or TLS (`imaps://` shakes hands at once, `imap://` after
/// STARTTLS on the same socket). A read also waits on a wake descriptor (an eventfd the
/// connection's owner writes when it has work), so an idle connection costs no CPU and still
/// answers at once. Every error is one line naming the server.
public final class ImapTransport {
  /// What a read came to.
  public enum ReadOutcome: Equatable {
    /// This many bytes are in the buffer.
    case data(Int)
    /// The timeout passed with nothing to read.
    case timedOut
    /// The wake descriptor is readable (not read: its owner drains it).
    case woken
    /// The server closed the connection.
    case closed
  }

  /// How long a write may wait for the socket to take more: as long as any command's reply may
  /// take (design §6), after which the connection is as good as dead.
  public static let writeTimeoutMs = 30_000

  /// The connected socket (non-blocking, close-on-exec); -1 once closed.
  public private(set) var fd: CInt
  /// `host:port`, as errors name the server.
  private let peer: String
  private var tls: TLSSession?

  private init(fd: CInt, peer: String) {
    self.fd = fd
    self.peer = peer
  }

  deinit { close() }

  /// A TCP connection to `host` and `port` (a name or an IPv4 or IPv6 literal), every address
  /// tried within `timeoutMs` in all; `TCP_NODELAY` and keepalive (idle 60 s, every 10 s, 3
  /// probes) set.
  ///
  /// - Throws: "cannot connect to host:port: Connection refused", "timed out connecting to
  ///   host:port (after 10000 ms)", "cannot resolve host: …".
  public static func connect(host: String, port: Int, timeoutMs: Int) throws(TransportError) -> ImapTransport {
    let fd = try TCPConnection.open(host: host, port: port, timeoutMs: timeoutMs)
    return ImapTransport(fd: fd, peer: TCPConnection.peerName(host: host, port: port))
  }

  /// The TLS handshake on the connected socket, within `timeoutMs`: the chain verified against
  /// the system's trust store, or only the certificates in `caFile`, and the certificate's
  /// names against `serverName` (SNI sent too, unless it is an IP address). From then on reads
  /// and writes go through TLS.
  ///
  /// - Throws: "TLS handshake with host:port failed: certificate does not verify: The
  ///   certificate is NOT trusted. The certificate issuer is unknown.", "… failed: timed out".
  public func startTLS(serverName: String, caFile: String?, timeoutMs: Int) throws(TransportError) {
    precondition(tls == nil && fd >= 0, "TLS starts once, on an open connection")
    let session = try TLSSession(fd: fd, serverName: serverName, caFile: caFile)
    do {
      try session.handshake(fd: fd, until: Deadline(afterMs: timeoutMs))
    } catch {
      throw TransportError("TLS handshake with \(peer) failed: \(error)")
    }
    tls = session
  }

  /// Writes all of `bytes`, waiting for the socket as needed (at most `writeTimeoutMs` each time
  /// it is full).
  public func write(_ bytes: [UInt8]) throws(TransportError) {
    var offset = 0
    while offset < bytes.count {
      let step = bytes.withUnsafeBytes { raw in
        Result { () throws(TransportError) in try send(UnsafeRawBufferPointer(rebasing: raw[offset...])) }
      }
      switch try step.get() {
      case .done(let n): offset += n
      case .closed: throw TransportError("\(peer) closed the connection")
      case .wouldBlock:
        let deadline = Deadline(afterMs: Self.writeTimeoutMs)
        if case .timedOut = waitFor(fd, CInt(POLLOUT), until: deadline) {
          throw TransportError("timed out writing to \(peer)")
        }
      }
    }
  }

  /// Waits up to `timeoutMs` (nil: for ever) for bytes from the server or for `wake` to be
  /// readable (-1: no wake descriptor), and reads what there is into `buffer`. Bytes GnuTLS
  /// already holds are returned at once, without asking the socket. The wake descriptor comes
  /// first when both are ready: the owner's work (a stop, a mark-read) waits for no server.
  public func read(
    into buffer: UnsafeMutableRawBufferPointer, timeoutMs: Int?, wake: CInt
  ) throws(TransportError) -> ReadOutcome {
    precondition(!buffer.isEmpty && fd >= 0, "a read needs room and an open connection")
    if let tls, tls.pending > 0, case .done(let n) = try tls.receive(into: buffer) { return .data(n) }
    let deadline = Deadline(afterMs: timeoutMs)
    while true {
      switch waitFor(fd, CInt(POLLIN), wake: wake, until: deadline) {
      case .timedOut: return .timedOut
      case .woken: return .woken
      case .ready:
        switch try receive(into: buffer) {
        case .done(let n): return .data(n)
        case .closed: return .closed
        case .wouldBlock: continue  // a partial TLS record, or a spurious wake-up
        }
      }
    }
  }

  /// Ends the connection (a TLS close_notify first, not waited for). Safe to call again.
  public func close() {
    guard fd >= 0 else { return }
    tls?.bye()
    tls = nil
    Glibc.close(fd)
    fd = -1
  }

  private func receive(into buffer: UnsafeMutableRawBufferPointer) throws(TransportError) -> TLSSession.Step {
    do {
      if let tls { return try tls.receive(into: buffer) }
      let n = recv(fd, buffer.baseAddress, buffer.count, 0)
      if n > 0 { return .done(n) }
      if n == 0 { return .closed }
      let e = Errno.current
      if e == .wouldBlock || e == .interrupted { return .wouldBlock }
      throw TransportError(e.description)
    } catch {
      throw TransportError("cannot read from \(peer): \(error)")
    }
  }

  private func send(_ bytes: UnsafeRawBufferPointer) throws(TransportError) -> TLSSession.Step {
    do {
      if let tls { return try tls.send(bytes) }
      let n = Glibc.send(fd, bytes.baseAddress, bytes.count, CInt(MSG_NOSIGNAL))
      if n >= 0 { return .done(n) }
      let e = Errno.current
      if e == .wouldBlock || e == .interrupted { return .wouldBlock }
      throw TransportError(e.description)
    } catch {
      throw TransportError("cannot write to \(peer): \(error)")
    }
  }
}
