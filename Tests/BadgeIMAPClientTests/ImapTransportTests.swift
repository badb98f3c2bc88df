import BadgeIMAPClient
import Foundation
import Testing

/// The transport against a real TLS server (Python's `ssl`, OpenSSL) with certificates from
/// CAs each test makes: what verifies, what does not and what it says, and reads that wait,
/// wake, time out and return what GnuTLS already holds.
@Suite struct ImapTransportTests {
  /// A CA, a second one, and a server certificate for localhost and 127.0.0.1 from the first.
  final class Certificates {
    let folder: TestFolder
    let ca: TestCA
    let otherCA: TestCA
    let server: (certificate: String, key: String)

    init() throws {
      folder = try TestFolder("imap-transport")
      ca = try TestCA("test-ca", in: folder)
      otherCA = try TestCA("other-ca", in: folder)
      server = try ca.issue("server", names: ["DNS:localhost", "IP:127.0.0.1", "IP:::1"])
    }
  }

  /// A transport connected to `server` at `host`, its TLS handshake done with `serverName`
  /// (`host` when nil) verified against `caFile`.
  @discardableResult
  static func connect(
    to server: TestServer, host: String = "localhost", serverName: String? = nil, caFile: String
  ) throws -> ImapTransport {
    let transport = try ImapTransport.connect(host: host, port: server.port, timeoutMs: 5000)
    try transport.startTLS(serverName: serverName ?? host, caFile: caFile, timeoutMs: 5000)
    return transport
  }

  /// A TLS server with a certificate from a CA of its own, and a transport verified with it.
  static func connected() throws -> (server: TestServer, transport: ImapTransport) {
    let certificates = try Certificates()
    let server = try TestServer(tls: certificates.server)
    return (server, try connect(to: server, caFile: certificates.ca.certificate))
  }

  /// One read into a buffer of 16 bytes, the outcome alone.
  static func readOnce(_ transport: ImapTransport, timeoutMs: Int?, wake: CInt = -1) throws -> ImapTransport.ReadOutcome
  {
    var buffer = [UInt8](repeating: 0, count: 16)
    return try buffer.withUnsafeMutableBytes { try transport.read(into: $0, timeoutMs: timeoutMs, wake: wake) }
  }

  /// Reads until `count` bytes came, each read waiting at most a second.
  static func read(_ transport: ImapTransport, count: Int) throws -> String {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    while received.count < count {
      let outcome = try buffer.withUnsafeMutableBytes { try transport.read(into: $0, timeoutMs: 1000, wake: -1) }
      guard case .data(let n) = outcome else { throw TestFailure("read: \(outcome)") }
      received += buffer[..<n]
    }
    return String(decoding: received, as: UTF8.self)
  }

  @Test func verifiesTheChainWithCAFileAndTheName() throws {
    let (server, transport) = try Self.connected()
    defer { withExtendedLifetime(server) {} }
    try transport.write(Array("send hello\n".utf8))
    #expect(try Self.read(transport, count: 5) == "hello")
  }

  @Test func verifiesAnIPAddressAgainstTheCertificatesIPEntry() throws {
    let certificates = try Certificates()
    let server = try TestServer(tls: certificates.server)
    let transport = try Self.connect(to: server, host: "127.0.0.1", caFile: certificates.ca.certificate)
    try transport.write(Array("send ok\n".utf8))
    #expect(try Self.read(transport, count: 2) == "ok")
  }

  @Test func connectsOverIPv6() throws {
    let certificates = try Certificates()
    let server = try TestServer(tls: certificates.server, address: "::1")
    let transport = try Self.connect(to: server, host: "::1", caFile: certificates.ca.certificate)
    try transport.write(Array("send v6\n".utf8))
    #expect(try Self.read(transport, count: 2) == "v6")
  }

  /// A chain from another CA, and a certificate for another name: the handshake fails with
  /// GnuTLS's words for why.
  @Test(arguments: [
    ("localhost", "localhost", true, "The certificate is NOT trusted. The certificate issuer is unknown."),
    (
      "127.0.0.1", "mail.example.org", false,
      "The certificate is NOT trusted. The name in the certificate does not match the expected."
    ),
  ])
  func refusesWhatDoesNotVerify(host: String, serverName: String, otherCA: Bool, why: String) throws {
    let certificates = try Certificates()
    let server = try TestServer(tls: certificates.server)
    let caFile = (otherCA ? certificates.otherCA : certificates.ca).certificate
    #expect(
      throws: TransportError("TLS handshake with \(host):\(server.port) failed: certificate does not verify: \(why)")
    ) { try Self.connect(to: server, host: host, serverName: serverName, caFile: caFile) }
  }

  @Test func refusesACAFileWithoutCertificates() throws {
    let certificates = try Certificates()
    let empty = try certificates.folder.write("empty.pem", "")
    let server = try TestServer(tls: certificates.server)
    #expect(throws: TransportError("ca_file '\(empty)' holds no certificate")) {
      try Self.connect(to: server, caFile: empty)
    }
  }

  @Test func namesARefusedConnection() throws {
    // A port that was listened on a moment ago, and is no more.
    let port = try TestServer(tls: nil).port
    #expect(throws: TransportError("cannot connect to 127.0.0.1:\(port): Connection refused")) {
      try ImapTransport.connect(host: "127.0.0.1", port: port, timeoutMs: 5000)
    }
  }

  @Test func namesAHostThatDoesNotResolve() throws {
    #expect(throws: TransportError("cannot resolve no-such-host.invalid: Name or service not known")) {
      try ImapTransport.connect(host: "no-such-host.invalid", port: 993, timeoutMs: 5000)
    }
  }

  @Test func plainConnectionsReadWriteAndSeeTheEnd() throws {
    let server = try TestServer(tls: nil)
    let transport = try ImapTransport.connect(host: "127.0.0.1", port: server.port, timeoutMs: 5000)
    try transport.write(Array("send plain text\n".utf8))
    #expect(try Self.read(transport, count: 9) == "plaintext")
    try transport.write(Array("close\n".utf8))
    #expect(try Self.readOnce(transport, timeoutMs: 5000) == .closed)
  }

  @Test func aServerClosingDuringTheHandshakeIsSaidSo() throws {
    let server = try TestServer(tls: nil)
    let transport = try ImapTransport.connect(host: "127.0.0.1", port: server.port, timeoutMs: 5000)
    // The plain server closes before a TLS byte: GnuTLS's "Error in the pull function", said
    // as what it is.
    try transport.write(Array("close\n".utf8))
    #expect(
      throws: TransportError("TLS handshake with 127.0.0.1:\(server.port) failed: the server closed the connection")
    ) {
      try transport.startTLS(serverName: "localhost", caFile: nil, timeoutMs: 5000)
    }
  }

  @Test func aTLSServerClosingWithoutCloseNotifyIsAnEnd() throws {
    let (server, transport) = try Self.connected()
    defer { withExtendedLifetime(server) {} }
    try transport.write(Array("close\n".utf8))
    #expect(try Self.readOnce(transport, timeoutMs: 5000) == .closed)
  }

  @Test func aReadIsWokenByTheWakeDescriptor() throws {
    let (server, transport) = try Self.connected()
    defer { withExtendedLifetime(server) {} }
    let wake = try WakeSignal()
    var buffer = [UInt8](repeating: 0, count: 16)
    // From another thread while the read waits with no timeout at all.
    Thread { wake.signal() }.start()
    #expect(try buffer.withUnsafeMutableBytes { try transport.read(into: $0, timeoutMs: nil, wake: wake.fd) } == .woken)
    // Still readable until drained: a read returns at once again; after a drain it waits.
    #expect(try buffer.withUnsafeMutableBytes { try transport.read(into: $0, timeoutMs: nil, wake: wake.fd) } == .woken)
    wake.signal()
    wake.drain()
    #expect(
      try buffer.withUnsafeMutableBytes { try transport.read(into: $0, timeoutMs: 50, wake: wake.fd) } == .timedOut)
  }

  @Test func aReadTimesOut() throws {
    let (server, transport) = try Self.connected()
    defer { withExtendedLifetime(server) {} }
    var buffer = [UInt8](repeating: 0, count: 16)
    let start = ContinuousClock.now
    #expect(try buffer.withUnsafeMutableBytes { try transport.read(into: $0, timeoutMs: 100, wake: -1) } == .timedOut)
    #expect(ContinuousClock.now - start >= .milliseconds(100))
  }

  /// Bytes GnuTLS has taken off the socket are returned without waiting on it: with a timeout
  /// of 0, a read that polled first would time out, the socket having nothing more.
  @Test func returnsWhatGnuTLSHoldsWithoutWaiting() throws {
    let (server, transport) = try Self.connected()
    defer { withExtendedLifetime(server) {} }
    // Two records in one TCP write: the first read takes the first, and the second is then
    // in GnuTLS's buffer or the socket's.
    try transport.write(Array("send first second\n".utf8))
    var buffer = [UInt8](repeating: 0, count: 64)
    #expect(try buffer.withUnsafeMutableBytes { try transport.read(into: $0, timeoutMs: 5000, wake: -1) } == .data(5))
    #expect(try buffer.withUnsafeMutableBytes { try transport.read(into: $0, timeoutMs: 0, wake: -1) } == .data(6))
    #expect(String(decoding: buffer[..<6], as: UTF8.self) == "second")
    // One record read a few bytes at a time: the rest is GnuTLS's alone, decrypted.
    try transport.write(Array("send 0123456789\n".utf8))
    var small = [UInt8](repeating: 0, count: 4)
    #expect(try small.withUnsafeMutableBytes { try transport.read(into: $0, timeoutMs: 5000, wake: -1) } == .data(4))
    #expect(try small.withUnsafeMutableBytes { try transport.read(into: $0, timeoutMs: 0, wake: -1) } == .data(4))
    #expect(try small.withUnsafeMutableBytes { try transport.read(into: $0, timeoutMs: 0, wake: -1) } == .data(2))
    #expect(String(decoding: small[..<2], as: UTF8.self) == "89")
  }
}
