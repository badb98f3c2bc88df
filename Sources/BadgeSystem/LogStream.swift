import Glibc

/// Standard error as the log writes it: never waiting for whoever reads it, and without
/// changing how anyone else writes to it.
///
/// `O_NONBLOCK` belongs to an open file description, which fd 2 shares with the process that
/// started the daemon (a shell's terminal, a supervisor's pipe): setting it on fd 2 would make
/// their writes fail with `EAGAIN` too. So each kind of descriptor gets its own way:
/// - a socket (a service manager's journal stream): `send` with `MSG_DONTWAIT`, a flag of the
///   call alone;
/// - a pipe, a FIFO or a terminal: a new open file description of the same pipe or terminal,
///   opened through `/proc/self/fd/2` with `O_NONBLOCK`, which only the log's writes use (a
///   terminal whose output is stopped, by Ctrl-S or a pane nobody draws, then drops lines like
///   a full pipe);
/// - one of those that cannot be opened again (it belongs to another user, or `/proc` is not
///   there): written only while `poll` says it has room, at most `PIPE_BUF` bytes at a time,
///   which a pipe with room takes whole without waiting (only another writer of the same pipe
///   filling it between the two calls could make the write wait);
/// - anything else, a regular file above all: written as it is, since a file never makes a
///   write wait for a reader (`O_NONBLOCK` does nothing to one), and its `O_APPEND` is kept.
struct LogStream {
  /// How bytes go out on `descriptor`.
  enum Method: Equatable {
    case sendWithoutWaiting
    case ownDescriptionWithoutWaiting
    case writeWhilePollSaysRoom
    case plainWrite
  }

  /// What a write did.
  enum Written: Equatable {
    /// This many bytes went out (all of them, or the first part).
    case wrote(Int)
    /// None: the reader is behind (`EAGAIN`), or no room for them now.
    case wouldBlock
    /// None: the descriptor failed (`EPIPE` once the reader is gone, `EIO`, `ENOSPC`).
    case failed
  }

  let descriptor: CInt
  let method: Method
  /// Whether `descriptor` was opened here (and is closed by `close()`).
  private let ownsDescriptor: Bool

  /// The most `writeWhilePollSaysRoom` writes at once: what a pipe with room takes whole.
  static let pollWriteLimit = 4096

  /// The way to write `fd` (standard error unless a test names another) without waiting.
  init(standardError fd: CInt = 2) {
    var status = stat()
    guard fstat(fd, &status) == 0 else {
      (descriptor, method, ownsDescriptor) = (fd, .plainWrite, false)
      return
    }
    let type = status.st_mode & S_IFMT
    if type == S_IFSOCK {
      (descriptor, method, ownsDescriptor) = (fd, .sendWithoutWaiting, false)
    } else if type == S_IFIFO || (type == S_IFCHR && isatty(fd) == 1) {
      let own = open("/proc/self/fd/\(fd)", O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
      if own >= 0 {
        (descriptor, method, ownsDescriptor) = (own, .ownDescriptionWithoutWaiting, true)
      } else {
        (descriptor, method, ownsDescriptor) = (fd, .writeWhilePollSaysRoom, false)
      }
    } else {
      (descriptor, method, ownsDescriptor) = (fd, .plainWrite, false)
    }
  }

  /// Whether epoll can say when `descriptor` has room again (not a regular file).
  var isWatchable: Bool { method != .plainWrite }

  func close() {
    if ownsDescriptor { Glibc.close(descriptor) }
  }

  /// Writes what `bytes` it can now, never waiting.
  func write(_ bytes: UnsafeRawBufferPointer) -> Written {
    guard bytes.count > 0 else { return .wrote(0) }
    var count = bytes.count
    if method == .writeWhilePollSaysRoom {
      var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
      guard poll(&poller, 1, 0) == 1 else { return .wouldBlock }
      if poller.revents & Int16(POLLERR | POLLHUP) != 0 { return .failed }
      count = min(count, LogStream.pollWriteLimit)
    }
    while true {
      let n: Int
      if method == .sendWithoutWaiting {
        n = send(descriptor, bytes.baseAddress, count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
      } else {
        n = Glibc.write(descriptor, bytes.baseAddress, count)
      }
      if n >= 0 { return .wrote(n) }
      switch errno {
      case EINTR: continue
      case EAGAIN: return .wouldBlock
      default: return .failed
      }
    }
  }
}
