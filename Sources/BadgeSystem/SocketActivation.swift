import CSystemd
import Glibc

/// Sockets passed by the service manager (socket activation, `sd_listen_fds`).
///
/// systemd (or `systemd-socket-activate`) binds the socket, keeps it across restarts and
/// passes it from fd 3 on, with `LISTEN_FDS` and `LISTEN_PID` set. The daemon must serve it as
/// it is: never bind, unlink or chmod it. See sd_listen_fds(3).
public enum SocketActivation {
  /// Why the passed sockets cannot be served.
  public struct Error: Swift.Error, CustomStringConvertible {
    public let description: String
  }

  /// The listening socket the service manager passed, or `nil` when it passed none (the
  /// daemon was started by hand and binds its own).
  ///
  /// The descriptor is made non-blocking and close-on-exec. `LISTEN_FDS` and `LISTEN_PID` are
  /// removed from the environment, so nothing the daemon starts takes the socket for its own.
  ///
  /// - Throws: `Error` when more than one descriptor was passed, or the one passed is not a
  ///   listening Unix stream socket (a unit with the wrong `ListenStream=`/`ListenDatagram=`).
  public static func inheritedListener() throws(Error) -> FileDescriptor? {
    let count = sd_listen_fds(1)
    if count < 0 {
      throw Error(description: "Failed to read the sockets passed by the service manager: \(Errno(rawValue: -count))")
    }
    if count == 0 { return nil }
    guard count == 1 else {
      throw Error(
        description:
          "The service manager passed \(count) sockets; badged serves exactly one listening Unix stream socket, "
          + "refusing to start"
      )
    }
    let fd = FileDescriptor(rawValue: SD_LISTEN_FDS_START)
    let isListeningStream = sd_is_socket_unix(fd.rawValue, UnixSocket.streamType, 1, nil, 0)
    guard isListeningStream > 0 else {
      throw Error(
        description:
          "The socket passed by the service manager (fd \(fd.rawValue)) is not a listening Unix stream socket; "
          + "check ListenStream= in badged.socket, refusing to start"
      )
    }
    do throws(Errno) {
      try fd.setNonBlocking()
      try fd.setCloseOnExec()
    } catch {
      throw Error(description: "Failed to make the passed socket non-blocking: \(error)")
    }
    return fd
  }

  /// The file system path a Unix socket is bound to (`getsockname`), for the log; `nil` for an
  /// abstract or unnamed socket.
  public static func path(of fd: FileDescriptor) -> String? {
    var address = sockaddr_un()
    var length = socklen_t(MemoryLayout<sockaddr_un>.size)
    let result = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd.rawValue, $0, &length) }
    }
    guard result == 0 else { return nil }
    let path = withUnsafeBytes(of: &address.sun_path) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    return path.isEmpty ? nil : path
  }
}
