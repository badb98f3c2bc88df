import BadgePOSIX
import BadgeProtocol

/// A blocking connection for one-shot commands: send a request, read its reply, through a
/// `ClientSession` (BadgeProtocol, pure: badgectl stays a static program that loads no library).
///
/// The reply's data lines are handed on as they arrive, never gathered: a reply may be as long
/// as the daemon (or whatever listens on the socket) makes it, and what a command keeps of it
/// is the command's to bound.
final class DaemonConnection {
  let socket: String
  private let fd: FileDescriptor
  private var reader = LineReader(maxLineLength: 1 << 16, capacity: 1 << 18)

  /// Connects to the daemon at `socket`.
  ///
  /// - Throws: `CtlError.unreachable` naming the socket.
  init(socket: String) throws(CtlError) {
    self.socket = socket
    do {
      fd = try UnixSocket.connect(path: socket)
    } catch {
      throw .unreachable(socket: socket, cause: error.errno.description)
    }
    UnixSocket.setReceiveTimeout(fd, seconds: 10)
  }

  deinit { fd.close() }

  /// Sends `request` (with `id`, when it takes one) as the client session writes it
  /// (`ClientSession`, through `RequestEncoder`) and hands each data line of its reply, as the
  /// session decodes it, to `body`, in order; the status line must be `OK`. Pushed lines (a
  /// one-shot connection watches nothing) are not part of the reply and are skipped.
  ///
  /// - Throws: `CtlError.daemon` when the reply is `ERR`, `.unreachable` when the connection
  ///   breaks.
  func request(_ request: Request, id: String? = nil, _ body: (ReplyLine) -> Void) throws(CtlError) {
    var session = ClientSession<Void>(limit: 1)
    session.connected()
    guard session.send(request, id: id, ticket: ()) else {
      // WATCH and UNWATCH are a watcher's: no one-shot command sends them.
      preconditionFailure("a one-shot command sent \(RequestEncoder.line(request))")
    }
    do {
      try fd.writeAll(session.takeOutput(), socket: true)
    } catch {
      // A daemon that refuses the connection (`ERR busy`, `ERR denied`) says why, then closes
      // it, maybe before the request was written: its line is the better reason to report.
      if let refusal = try? readLine(), case .error(let code, let message) = ReplyLine(refusal) {
        throw .daemon(code: code, message: message)
      }
      throw .unreachable(socket: socket, cause: error.description)
    }
    while true {
      guard case .reply(_, let reply)? = session.receive(ReplyLine(try readLine())) else { continue }
      switch reply {
      case .ok: return
      case .error(let code, let message): throw .daemon(code: code, message: message)
      default: body(reply)
      }
    }
  }

  /// The next line from the daemon, framed from the reader's buffer one at a time (a line
  /// over the reader's limit is skipped).
  private func readLine() throws(CtlError) -> String {
    while true {
      var line: String?
      reader.forEachFrame { frame in
        guard case .line(let bytes) = frame else { return true }
        line = String(decoding: bytes, as: UTF8.self)
        return false
      }
      if let line { return line }
      switch reader.read(from: fd) {
      case .success(.processed): continue
      case .success(.endOfFile): throw .unreachable(socket: socket, cause: "the daemon closed the connection")
      // SO_RCVTIMEO ran out.
      case .success(.wouldBlock): throw .unreachable(socket: socket, cause: Errno.timedOut.description)
      case .failure(let error): throw .unreachable(socket: socket, cause: error.description)
      }
    }
  }
}
