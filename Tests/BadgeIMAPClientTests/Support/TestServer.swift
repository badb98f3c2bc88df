import Foundation

/// A server for the transport's tests (Debian's python3): it listens on a port the kernel
/// picks, takes one connection at a time, and, with TLS through Python's `ssl` (an `SSLObject`
/// over memory buffers, so it decides what goes into each TCP write), answers lines the
/// client sends:
/// - `send a b c`: each word as a record of its own, all of them in one TCP write;
/// - `close`: closes the connection.
/// A connection whose handshake fails is dropped and the next one awaited.
final class TestServer {
  let port: Int
  private let process: Process

  /// - Parameters:
  ///   - tls: the certificate and key to serve with; nil: plain TCP.
  ///   - address: where to listen (`127.0.0.1`, `::1`).
  init(tls: (certificate: String, key: String)?, address: String = "127.0.0.1") throws {
    process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", Self.script, address, tls?.certificate ?? "", tls?.key ?? ""]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let more = output.fileHandleForReading.availableData
      guard !more.isEmpty else { throw TestFailure("the test server did not start") }
      line += more
    }
    guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    else { throw TestFailure("the test server printed no port") }
    self.port = port
  }

  /// SIGKILL: the test process blocks SIGTERM in its threads (the event loops' tests), and
  /// Foundation's children inherit that mask.
  deinit {
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  private static let script = #"""
    import socket, ssl, sys
    address, certificate, key = sys.argv[1:4]
    context = None
    if certificate:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certificate, key)
    listener = socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((address, 0))
    listener.listen(16)
    print(listener.getsockname()[1], flush=True)

    def serve(connection):
        incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
        tls = context.wrap_bio(incoming, outgoing, server_side=True) if context else None
        def flush():
            data = outgoing.read()
            if data:
                connection.sendall(data)
        def fill():
            data = connection.recv(65536)
            if not data:
                raise EOFError
            incoming.write(data)
        def receive():
            if not tls:
                data = connection.recv(65536)
                if not data:
                    raise EOFError
                return data
            while True:
                try:
                    data = tls.read(65536)
                    if not data:
                        raise EOFError
                    return data
                except ssl.SSLWantReadError:
                    fill()
        while tls:
            try:
                tls.do_handshake()
                flush()
                break
            except ssl.SSLWantReadError:
                flush()
                fill()
        pending = b""
        while True:
            while b"\n" not in pending:
                pending += receive()
            line, pending = pending.split(b"\n", 1)
            words = line.split(b" ")
            if words[0] == b"send":
                if tls:
                    for word in words[1:]:
                        tls.write(word)
                    flush()
                else:
                    connection.sendall(b"".join(words[1:]))
            elif words[0] == b"close":
                return

    while True:
        connection, _ = listener.accept()
        try:
            serve(connection)
        except Exception:
            pass
        connection.close()
    """#
}
