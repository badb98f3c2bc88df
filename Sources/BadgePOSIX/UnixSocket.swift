import CLinux
import Glibc

/// Stream sockets in the Unix domain: the daemon's listener and the CLI's connection.
public enum UnixSocket {
  /// Why a listening socket could not be set up.
  public enum ListenError: Error, CustomStringConvertible {
    /// Another process answers on the path; it was left alone.
    case alreadyServed(path: String)
    case system(SystemError)

    public var description: String {
      switch self {
      case .alreadyServed(let path):
        return "Another badged is already serving '\(path)', refusing to start"
      case .system(let error): return error.description
      }
    }
  }

  /// `SOCK_STREAM`, for `sd_is_socket_unix`. Named here because a file that imports CSystemd
  /// must not name Glibc's socket constants: in a release (whole-module) build that hides them
  /// from the files that import only Glibc ("cannot find 'SOCK_STREAM' in scope").
  package static let streamType = Int32(SOCK_STREAM.rawValue)

  /// The longest path `sockaddr_un` holds, not counting the NUL.
  public static let maxPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

  /// Binds and listens on `path` (non-blocking, mode 0600).
  ///
  /// A socket file nobody answers on (left by a crash) is replaced; one that answers belongs to
  /// a live daemon, and is left as it is.
  public static func listen(path: String, backlog: CInt = 128) throws(ListenError) -> FileDescriptor {
    let fd = try makeSocket(nonBlocking: true).mapError(ListenError.system).get()
    do throws(ListenError) {
      try bindWithPrivateMode(fd, path: path)
      guard Glibc.listen(fd.rawValue, backlog) == 0 else {
        throw .system(SystemError("listen on '\(path)'", .current))
      }
      return fd
    } catch {
      fd.close()
      throw error
    }
  }

  private static func bindWithPrivateMode(_ fd: FileDescriptor, path: String) throws(ListenError) {
    var address = try makeAddress(path).mapError(ListenError.system).get()
    // The file is created with the process's umask (connecting needs write permission, which
    // the usual 022 gives the owner alone) and set to 0600 right after. The umask itself is left
    // alone: it is process-wide, and changing it for a moment would change the mode of files
    // other threads create meanwhile (seen in the test process).
    var result = bindRaw(fd, &address)
    if result != 0 && Errno.current == .addressInUse {
      if isServed(path: path) { throw .alreadyServed(path: path) }
      // Only a socket file can be a crashed daemon's; anything else at the path (a file named
      // by mistake) is not ours to delete.
      guard isSocketFile(path) else { throw .system(SystemError("bind to '\(path)'", .addressInUse)) }
      unlink(path)
      result = bindRaw(fd, &address)
    }
    guard result == 0 else { throw .system(SystemError("bind to '\(path)'", .current)) }
    guard chmod(path, 0o600) == 0 else { throw .system(SystemError("make '\(path)' private", .current)) }
  }

  /// Whether `path` itself (not what a link points to) is a socket file.
  private static func isSocketFile(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK
  }

  /// Whether a process accepts connections on `path` now.
  public static func isServed(path: String) -> Bool {
    guard let fd = try? connect(path: path) else { return false }
    fd.close()
    return true
  }

  /// Connects to `path`: a stream socket, or a datagram one; blocking, or not, so that a
  /// listener whose backlog is full makes the call fail with `EAGAIN` instead of waiting.
  public static func connect(
    path: String, datagram: Bool = false, nonBlocking: Bool = false
  ) throws(SystemError) -> FileDescriptor {
    let fd = try makeSocket(nonBlocking: nonBlocking, datagram: datagram).get()
    var address: sockaddr_un
    do {
      address = try makeAddress(path).get()
    } catch {
      fd.close()
      throw error
    }
    let result = retrying {
      withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          Glibc.connect(fd.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
      }
    }
    if case .failure(let e) = result {
      fd.close()
      throw SystemError("connect to '\(path)'", e)
    }
    return fd
  }

  /// Accepts one pending connection as a non-blocking, close-on-exec descriptor (`accept4`,
  /// so the flags are set in the same call), or `nil` when none is pending.
  ///
  /// - Throws: `Errno`; `EMFILE` and `ENFILE` (out of descriptors) leave the connection
  ///   pending, so the caller must stop accepting for a while rather than retry at once.
  public static func accept(_ listener: FileDescriptor) throws(Errno) -> FileDescriptor? {
    let flags = Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    switch retrying({ badged_accept4(listener.rawValue, flags) }) {
    case .success(let raw): return FileDescriptor(rawValue: raw)
    case .failure(let e) where e == .wouldBlock: return nil
    case .failure(let e) where e.rawValue == ECONNABORTED: return nil  // gone before we took it
    case .failure(let e): throw e
    }
  }

  /// Who is at the other end of a connected Unix socket (`SO_PEERCRED`): what the kernel
  /// recorded when the peer connected, which the peer cannot forge.
  public struct PeerCredentials: Equatable, Sendable {
    public let pid: pid_t
    public let uid: uid_t
    public let gid: gid_t

    /// Whether the peer runs as the user this process runs as (its effective uid).
    public var isThisUser: Bool { uid == PeerCredentials.effectiveUID }

    /// This process's effective uid, asked once: it never changes its user, and each
    /// accepted connection would otherwise cost a `geteuid` call.
    private static let effectiveUID = geteuid()
  }

  /// The peer's credentials, or `nil` when the kernel cannot tell (not a Unix socket).
  public static func peerCredentials(_ fd: FileDescriptor) -> PeerCredentials? {
    // `struct ucred` needs _GNU_SOURCE, which the Glibc module is built without; a tuple has
    // its layout (pid, uid, gid).
    var credentials: (pid_t, uid_t, gid_t) = (0, 0, 0)
    var length = socklen_t(MemoryLayout<(pid_t, uid_t, gid_t)>.size)
    guard getsockopt(fd.rawValue, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
    return PeerCredentials(pid: credentials.0, uid: credentials.1, gid: credentials.2)
  }

  /// The process id of the peer (`SO_PEERCRED`), for logs.
  public static func peerPID(_ fd: FileDescriptor) -> pid_t? {
    peerCredentials(fd)?.pid
  }

  private static func makeSocket(nonBlocking: Bool, datagram: Bool = false) -> Result<FileDescriptor, SystemError> {
    var type = Int32((datagram ? SOCK_DGRAM : SOCK_STREAM).rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
    let raw = socket(AF_UNIX, type, 0)
    guard raw >= 0 else { return .failure(SystemError("create a socket", .current)) }
    return .success(FileDescriptor(rawValue: raw))
  }

  private static func makeAddress(_ path: String) -> Result<sockaddr_un, SystemError> {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard !bytes.isEmpty, bytes.count <= maxPathLength else {
      return .failure(SystemError("use socket path '\(path)'", Errno(rawValue: ENAMETOOLONG)))
    }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    return .success(address)
  }

  private static func bindRaw(_ fd: FileDescriptor, _ address: inout sockaddr_un) -> CInt {
    withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
  }
}

extension UnixSocket {
  /// Makes blocking reads on `fd` fail with `EAGAIN` after `seconds` (`SO_RCVTIMEO`), so a
  /// client never hangs on a daemon that stopped answering.
  public static func setReceiveTimeout(_ fd: FileDescriptor, seconds: Int) {
    var timeout = timeval(tv_sec: seconds, tv_usec: 0)
    setsockopt(fd.rawValue, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }
}
