import CGnuTLS
import Glibc

/// A GnuTLS client session on a connected non-blocking socket: the server's chain verified
/// against the system's trust store or only `caFile`, and its name against `serverName`
/// (`gnutls_session_set_verify_cert`), so a handshake with the wrong server fails rather than
/// being reported later. GnuTLS never blocks here (`GNUTLS_NONBLOCK`): the caller polls the
/// socket whenever a call answers `GNUTLS_E_AGAIN`.
final class TLSSession {
  /// What one record read or write came to.
  enum Step {
    case done(Int)
    case wouldBlock
    case closed
  }

  private var session: gnutls_session_t?
  private var credentials: gnutls_certificate_credentials_t?
  /// The name verified, kept for the session's life (GnuTLS keeps the pointer, not a copy).
  private let verifiedName: UnsafeMutablePointer<CChar>

  /// A session on `fd`, not yet shaken hands.
  ///
  /// - Throws: the reason as text when the trust store or `caFile` cannot be loaded.
  init(fd: CInt, serverName: String, caFile: String?) throws(TransportError) {
    verifiedName = strdup(serverName)
    guard gnutls_certificate_allocate_credentials(&credentials) == GNUTLS_E_SUCCESS,
      badged_gnutls_client_init(&session) == GNUTLS_E_SUCCESS
    else { throw TransportError("cannot set up TLS: out of memory") }
    let loaded =
      caFile.map { gnutls_certificate_set_x509_trust_file(credentials, $0, GNUTLS_X509_FMT_PEM) }
      ?? gnutls_certificate_set_x509_system_trust(credentials)
    if loaded < 0 {
      throw TransportError(
        "cannot load \(caFile.map { "ca_file '\($0)'" } ?? "the system's CA certificates"): \(Self.text(loaded))")
    }
    if loaded == 0, let caFile { throw TransportError("ca_file '\(caFile)' holds no certificate") }
    gnutls_set_default_priority(session)
    gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, UnsafeMutableRawPointer(credentials))
    if !TCPConnection.isAddressLiteral(serverName) {
      gnutls_server_name_set(session, GNUTLS_NAME_DNS, serverName, serverName.utf8.count)
    }
    gnutls_session_set_verify_cert(session, verifiedName, 0)
    badged_gnutls_transport_set_fd(session, fd)
    // Writes through send(MSG_NOSIGNAL): a server that went away is an error, never SIGPIPE.
    gnutls_transport_set_push_function(session) { transport, data, size in
      Glibc.send(CInt(truncatingIfNeeded: Int(bitPattern: transport)), data, size, CInt(MSG_NOSIGNAL))
    }
  }

  deinit {
    gnutls_deinit(session)
    gnutls_certificate_free_credentials(credentials)
    free(verifiedName)
  }

  /// The handshake, polling `fd` in the direction GnuTLS waits for until `deadline`.
  ///
  /// - Throws: why it failed, without the "TLS handshake with … failed" the caller adds:
  ///   "certificate does not verify: The certificate is NOT trusted. …", "timed out".
  func handshake(fd: CInt, until deadline: Deadline) throws(TransportError) {
    while true {
      let result = gnutls_handshake(session)
      if result == GNUTLS_E_SUCCESS { return }
      if result == GNUTLS_E_CERTIFICATE_VERIFICATION_ERROR {
        throw TransportError("certificate does not verify: \(verificationStatus())")
      }
      // GnuTLS calls a connection that ended or was reset mid-handshake "Error in the pull
      // function": said as what happened (a server shutting down, a dying listener).
      if result == GNUTLS_E_PULL_ERROR || result == GNUTLS_E_PREMATURE_TERMINATION {
        throw TransportError("the server closed the connection")
      }
      guard result == GNUTLS_E_AGAIN || result == GNUTLS_E_INTERRUPTED else {
        throw TransportError(Self.text(result))
      }
      let events = gnutls_record_get_direction(session) == 1 ? POLLOUT : POLLIN
      if case .timedOut = waitFor(fd, CInt(events), until: deadline) { throw TransportError("timed out") }
    }
  }

  /// Bytes GnuTLS has decrypted and holds: a read returns them without waiting on the socket,
  /// which may have nothing more to say.
  var pending: Int { gnutls_record_check_pending(session) }

  /// One record's bytes (or what of them fits) into `buffer`.
  func receive(into buffer: UnsafeMutableRawBufferPointer) throws(TransportError) -> Step {
    while true {
      let n = gnutls_record_recv(session, buffer.baseAddress, buffer.count)
      if n > 0 { return .done(n) }
      // A server that closes its end without close_notify (many do, after BYE) has closed it
      // all the same: the engine decides what an early end means.
      if n == 0 || n == GNUTLS_E_PREMATURE_TERMINATION { return .closed }
      if n == GNUTLS_E_INTERRUPTED { continue }
      if n == GNUTLS_E_AGAIN { return .wouldBlock }
      throw TransportError(Self.text(CInt(n)))
    }
  }

  /// Sends what it can of `bytes` as records; `.wouldBlock`: call again with the same bytes
  /// once the socket is writable (GnuTLS's rule after `GNUTLS_E_AGAIN`).
  func send(_ bytes: UnsafeRawBufferPointer) throws(TransportError) -> Step {
    while true {
      let n = gnutls_record_send(session, bytes.baseAddress, bytes.count)
      if n >= 0 { return .done(n) }
      if n == GNUTLS_E_INTERRUPTED { continue }
      if n == GNUTLS_E_AGAIN { return .wouldBlock }
      throw TransportError(Self.text(CInt(n)))
    }
  }

  /// Tells the server the session ends (close_notify), without waiting for its answer.
  func bye() {
    _ = gnutls_bye(session, GNUTLS_SHUT_WR)
  }

  /// GnuTLS's words for why the chain or the name did not verify.
  private func verificationStatus() -> String {
    let status = gnutls_session_get_verify_cert_status(session)
    var text = gnutls_datum_t()
    guard gnutls_certificate_verification_status_print(status, gnutls_certificate_type_get(session), &text, 0) == 0,
      let data = text.data
    else { return "status \(status)" }
    defer { badged_gnutls_free(data) }
    var words = String(cString: data)
    while words.last == " " { words.removeLast() }  // GnuTLS ends each sentence with a space
    return words
  }

  private static func text(_ code: CInt) -> String { String(cString: gnutls_strerror(code)) }
}
