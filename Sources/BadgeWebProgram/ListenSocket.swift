import BadgePOSIX
import Glibc

/// A listening socket badged-web binds itself and hands to libmicrohttpd
/// (`MHD_OPTION_LISTEN_SOCKET`): one code path for TCP and Unix addresses, and a bind error
/// that names the address, before the server starts.
struct ListenSocket {
  let fd: FileDescriptor
  /// Whether the socket is IPv6 (libmicrohttpd is told, `MHD_USE_IPv6`).
  let isIPv6: Bool
  /// The address as the log and errors say it (`127.0.0.1:8787`, `[::1]:8787`, `unix:/path`).
  let name: String
  /// The TCP port bound (the kernel's choice for port 0); nil for a Unix socket.
  let port: UInt16?

  static let backlog: CInt = 128

  /// Binds and listens on `host:port` (a numeric IPv4 or IPv6 address, or a name that resolves
  /// to one: the first address found is bound).
  static func tcp(host: String, port: UInt16) throws(SystemError) -> ListenSocket {
    var hints = addrinfo()
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var found: UnsafeMutablePointer<addrinfo>?
    let name = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    let status = getaddrinfo(host, String(port), &hints, &found)
    guard status == 0, let first = found else {
      throw SystemError("resolve the listen address '\(name)'", Errno(rawValue: EADDRNOTAVAIL))
    }
    defer { freeaddrinfo(found) }
    let family = first.pointee.ai_family
    let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
    let raw = socket(family, type, 0)
    guard raw >= 0 else { throw SystemError("create a socket for '\(name)'", .current) }
    let fd = FileDescriptor(rawValue: raw)
    var one: CInt = 1
    _ = setsockopt(raw, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<CInt>.size))
    // A v6 address is that address alone: `[::]` does not take IPv4's port as well.
    if family == AF_INET6 {
      _ = setsockopt(raw, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<CInt>.size))
    }
    guard bind(raw, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
      let error = Errno.current
      fd.close()
      throw SystemError("bind to '\(name)'", error)
    }
    guard listen(raw, backlog) == 0 else {
      let error = Errno.current
      fd.close()
      throw SystemError("listen on '\(name)'", error)
    }
    let bound = boundPort(raw) ?? port
    let shown = host.contains(":") ? "[\(host)]:\(bound)" : "\(host):\(bound)"
    return ListenSocket(fd: fd, isIPv6: family == AF_INET6, name: shown, port: bound)
  }

  /// Binds and listens on the Unix socket `path` (mode 0600; a stale socket file replaced, one
  /// that answers refused), for a reverse proxy on the same machine.
  static func unix(path: String) throws(SystemError) -> ListenSocket {
    do {
      let fd = try UnixSocket.listen(path: path, backlog: backlog)
      return ListenSocket(fd: fd, isIPv6: false, name: "unix:\(path)", port: nil)
    } catch {
      switch error {
      case .system(let system): throw system
      case .alreadyServed:
        throw SystemError("listen on '\(path)' (another process serves it)", Errno(rawValue: EADDRINUSE))
      }
    }
  }

  private static func boundPort(_ raw: CInt) -> UInt16? {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let status = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(raw, $0, &length) }
    }
    guard status == 0 else { return nil }
    let family = storage.ss_family
    return withUnsafePointer(to: &storage) { pointer in
      if family == sa_family_t(AF_INET6) {
        return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
      }
      return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
    }
  }
}
