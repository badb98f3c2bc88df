import BadgeSystem
import Glibc

/// Opening the TCP connection to an IMAP server: every address the name resolves to (IPv6 and
/// IPv4, in `getaddrinfo`'s order) tried in turn, each with a non-blocking `connect` given an
/// equal share of what is left of the timeout (so an address that swallows packets cannot use
/// up the time of the ones after it), and the connected socket set up for a long quiet life.
enum TCPConnection {
  /// TCP keepalive (design §6): probes start after 60 s without traffic, every 10 s, and 3
  /// unanswered ones end the connection, so a dead link is seen within about 90 s even while
  /// the connection sits in IDLE.
  static let keepaliveIdleSeconds: CInt = 60
  static let keepaliveIntervalSeconds: CInt = 10
  static let keepaliveProbes: CInt = 3

  /// A connected, non-blocking, close-on-exec socket to `host` and `port`.
  static func open(host: String, port: Int, timeoutMs: Int) throws(TransportError) -> CInt {
    let peer = peerName(host: host, port: port)
    let addresses = try resolve(host: host, port: port)
    defer { freeaddrinfo(addresses.first) }
    let deadline = Deadline(afterMs: timeoutMs)
    var timedOut = false
    var lastError = Errno(rawValue: ECONNREFUSED)
    for (index, address) in addresses.enumerated() {
      let share = Int(deadline.pollTimeout) / (addresses.count - index)
      switch attempt(address.pointee, timeoutMs: share) {
      case .success(let fd):
        configure(fd)
        return fd
      case .failure(let e) where e == .timedOut: timedOut = true
      case .failure(let e): lastError = e
      }
    }
    if timedOut { throw TransportError("timed out connecting to \(peer) (after \(timeoutMs) ms)") }
    throw TransportError("cannot connect to \(peer): \(lastError)")
  }

  /// `host:port`, with an IPv6 literal in brackets (`[::1]:993`), as errors name the server.
  static func peerName(host: String, port: Int) -> String {
    host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
  }

  /// Whether `host` is an IP address rather than a name (no SNI is sent for one, RFC 6066 §3).
  static func isAddressLiteral(_ host: String) -> Bool {
    var buffer = in6_addr()
    return inet_pton(AF_INET, host, &buffer) == 1 || inet_pton(AF_INET6, host, &buffer) == 1
  }

  /// The stream addresses of `host` (a name or a literal), as a list `freeaddrinfo(first)` frees.
  private static func resolve(host: String, port: Int) throws(TransportError) -> [UnsafeMutablePointer<addrinfo>] {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = CInt(SOCK_STREAM.rawValue)
    hints.ai_flags = AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    let result = getaddrinfo(host, String(port), &hints, &list)
    guard result == 0, let list else {
      let reason = result == EAI_SYSTEM ? Errno.current.description : String(cString: gai_strerror(result))
      throw TransportError("cannot resolve \(host): \(reason)")
    }
    var addresses: [UnsafeMutablePointer<addrinfo>] = []
    var next: UnsafeMutablePointer<addrinfo>? = list
    while let address = next {
      addresses.append(address)
      next = address.pointee.ai_next
    }
    return addresses
  }

  /// One address: a socket, a non-blocking connect, and a wait of at most `timeoutMs` for it.
  private static func attempt(_ address: addrinfo, timeoutMs: Int) -> Result<CInt, Errno> {
    let fd = socket(
      address.ai_family, address.ai_socktype | CInt(SOCK_NONBLOCK.rawValue) | CInt(SOCK_CLOEXEC.rawValue),
      address.ai_protocol)
    guard fd >= 0 else { return .failure(.current) }
    if Glibc.connect(fd, address.ai_addr, address.ai_addrlen) == 0 { return .success(fd) }
    var failure = Errno.current
    if failure.rawValue == EINPROGRESS {
      switch waitFor(fd, CInt(POLLOUT), until: Deadline(afterMs: timeoutMs)) {
      case .ready:
        var error: CInt = 0
        var length = socklen_t(MemoryLayout<CInt>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
        if error == 0 { return .success(fd) }
        failure = Errno(rawValue: error)
      case .woken, .timedOut:
        failure = .timedOut
      }
    }
    Glibc.close(fd)
    return .failure(failure)
  }

  /// `TCP_NODELAY` (a command is one small write, sent at once) and keepalive.
  private static func configure(_ fd: CInt) {
    func set(_ level: CInt, _ option: CInt, _ value: CInt) {
      var value = value
      setsockopt(fd, level, option, &value, socklen_t(MemoryLayout<CInt>.size))
    }
    set(CInt(IPPROTO_TCP), TCP_NODELAY, 1)
    set(SOL_SOCKET, SO_KEEPALIVE, 1)
    set(CInt(IPPROTO_TCP), TCP_KEEPIDLE, keepaliveIdleSeconds)
    set(CInt(IPPROTO_TCP), TCP_KEEPINTVL, keepaliveIntervalSeconds)
    set(CInt(IPPROTO_TCP), TCP_KEEPCNT, keepaliveProbes)
  }
}
