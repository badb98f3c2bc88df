import BadgeCore
import Glibc

/// An open file descriptor; a thin wrapper with Swift errors. Closing is explicit. As a
/// `ByteSource` it is what the protocol's `LineReader` reads from.
public struct FileDescriptor: Hashable, Sendable, ByteSource {
  public let rawValue: CInt

  public init(rawValue: CInt) { self.rawValue = rawValue }

  public static let standardInput = FileDescriptor(rawValue: 0)
  public static let standardOutput = FileDescriptor(rawValue: 1)
  public static let standardError = FileDescriptor(rawValue: 2)

  /// Reads into `buffer`, retrying on `EINTR`.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> IOResult {
    switch retrying({ Glibc.read(rawValue, buffer.baseAddress, buffer.count) }) {
    case .success(0): return buffer.isEmpty ? .processed(0) : .endOfFile
    case .success(let n): return .processed(n)
    case .failure(let e) where e == .wouldBlock: return .wouldBlock
    case .failure(let e): throw e
    }
  }

  /// Writes what it can of `bytes` once, retrying on `EINTR`. On a socket this never raises
  /// SIGPIPE (`MSG_NOSIGNAL`); a closed peer is an `EPIPE` error instead.
  public func write(_ bytes: UnsafeRawBufferPointer, socket: Bool = false) throws(Errno) -> IOResult {
    let result = retrying {
      socket
        ? Glibc.send(rawValue, bytes.baseAddress, bytes.count, CInt(MSG_NOSIGNAL))
        : Glibc.write(rawValue, bytes.baseAddress, bytes.count)
    }
    switch result {
    case .success(let n): return .processed(n)
    case .failure(let e) where e == .wouldBlock: return .wouldBlock
    case .failure(let e): throw e
    }
  }

  /// Writes all of `bytes`, blocking as needed (for blocking descriptors).
  public func writeAll(_ bytes: some Collection<UInt8>, socket: Bool = false) throws(Errno) {
    let array = Array(bytes)
    var offset = 0
    while offset < array.count {
      let result: Result<IOResult, Errno> = array.withUnsafeBytes { raw in
        Result { () throws(Errno) in try write(UnsafeRawBufferPointer(rebasing: raw[offset...]), socket: socket) }
      }
      switch try result.get() {
      case .processed(let n): offset += n
      case .wouldBlock:
        var poller = pollfd(fd: rawValue, events: Int16(POLLOUT), revents: 0)
        _ = poll(&poller, 1, -1)
      case .endOfFile: return
      }
    }
  }

  /// Sets or clears `O_NONBLOCK`.
  public func setNonBlocking(_ on: Bool = true) throws(Errno) {
    let flags = fcntl(rawValue, F_GETFL)
    guard flags >= 0 else { throw Errno.current }
    let wanted = on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
    guard fcntl(rawValue, F_SETFL, wanted) == 0 else { throw Errno.current }
  }

  /// A new pipe, both ends close-on-exec (a child gets an end only through `dup2`), the read
  /// end non-blocking when asked (read from the loop), the write end as asked.
  public static func pipe(nonBlockingRead: Bool, nonBlockingWrite: Bool) throws(SystemError) -> (
    read: FileDescriptor, write: FileDescriptor
  ) {
    var ends: [CInt] = [-1, -1]
    guard Glibc.pipe(&ends) == 0 else { throw SystemError("create a pipe", .current) }
    let (read, write) = (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    for (end, nonBlocking) in [(read, nonBlockingRead), (write, nonBlockingWrite)] {
      _ = fcntl(end.rawValue, F_SETFD, FD_CLOEXEC)
      if nonBlocking { _ = fcntl(end.rawValue, F_SETFL, O_NONBLOCK) }
    }
    return (read, write)
  }

  /// Sets `FD_CLOEXEC`, so spawned programs do not inherit the descriptor.
  public func setCloseOnExec() throws(Errno) {
    guard fcntl(rawValue, F_SETFD, FD_CLOEXEC) == 0 else { throw Errno.current }
  }

  /// Whether the descriptor is a terminal.
  public var isTerminal: Bool { isatty(rawValue) == 1 }

  /// The width of the terminal the descriptor is, in columns; `nil` when it is none or does not
  /// say (`TIOCGWINSZ`).
  public var terminalColumns: Int? {
    var size = winsize()
    guard ioctl(rawValue, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  /// Whether the descriptor is open (a closed standard input must not be read, nor mistaken
  /// for the next descriptor opened).
  public var isOpen: Bool { fcntl(rawValue, F_GETFD) != -1 }

  public func close() {
    _ = Glibc.close(rawValue)
  }
}

extension ByteSource where Self == FileDescriptor {
  /// Standard input where any `ByteSource` will do (`reader.read(from: .standardInput)`).
  public static var standardInput: FileDescriptor { FileDescriptor.standardInput }
}
