import BadgeProtocol
import BadgeSystem

/// A blocking connection for one-shot commands: send a request, read its reply.
final class DaemonConnection {
  let socket: String
  private let fd: FileDescriptor
  private var reader = LineReader(maxLineLength: 1 << 16, capacity: 1 << 18)
  private var pending: [String] = []

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

  /// Sends one request line and returns its data lines; the status line must be `OK`.
  ///
  /// - Throws: `CtlError.daemon` when the reply is `ERR`, `.unreachable` when the connection
  ///   breaks.
  func request(_ line: String) throws(CtlError) -> [ReplyLine] {
    do {
      try fd.writeAll((line + "\n").utf8, socket: true)
    } catch {
      // A daemon that refuses the connection (`ERR busy`, `ERR denied`) says why, then closes
      // it, maybe before the request was written: its line is the better reason to report.
      if let refusal = try? readLine(), case .error(let code, let message) = ReplyLine(refusal) {
        throw .daemon(code: code, message: message)
      }
      throw .unreachable(socket: socket, cause: error.description)
    }
    var data: [ReplyLine] = []
    while true {
      let reply = ReplyLine(try readLine())
      switch reply {
      case .ok: return data
      case .error(let code, let message): throw .daemon(code: code, message: message)
      case .event: continue  // not watching; cannot happen, ignore
      default: data.append(reply)
      }
    }
  }

  /// The next line from the daemon.
  private func readLine() throws(CtlError) -> String {
    while pending.isEmpty {
      var failure: Errno?
      var ended = false
      switch reader.read(from: fd) {
      case .success(.processed): break
      case .success(.endOfFile): ended = true
      case .success(.wouldBlock): failure = .timedOut  // SO_RCVTIMEO ran out
      case .failure(let error): failure = error
      }
      reader.forEachFrame { frame in
        if case .line(let bytes) = frame { pending.append(String(decoding: bytes, as: UTF8.self)) }
        return true
      }
      if !pending.isEmpty { break }
      if let failure { throw .unreachable(socket: socket, cause: failure.description) }
      if ended { throw .unreachable(socket: socket, cause: "the daemon closed the connection") }
    }
    return pending.removeFirst()
  }
}
