import BadgeSystem

/// The socket the daemon serves: the one the service manager passed (socket activation), or
/// one it binds itself when started by hand.
struct ListeningSocket {
  /// Why there is no socket to serve; the daemon exits with status 1.
  struct Error: Swift.Error, CustomStringConvertible {
    let description: String
  }

  let fd: FileDescriptor
  /// Where clients connect, for the log.
  let path: String
  /// Passed by the service manager: it owns the socket file, which must outlive this process.
  let isInherited: Bool

  /// The passed socket when there is one (`path` is then not used), else a new socket bound
  /// at `path`, its folder created with mode 0700.
  static func open(path: String) throws(Error) -> ListeningSocket {
    do throws(SocketActivation.Error) {
      if let fd = try SocketActivation.inheritedListener() {
        return ListeningSocket(
          fd: fd, path: SocketActivation.path(of: fd) ?? "the socket passed by the service manager",
          isInherited: true)
      }
    } catch {
      throw Error(description: error.description)
    }
    do throws(SystemError) {
      try FileSystem.makeFolder(FileSystem.folder(of: path), mode: 0o700)
    } catch {
      throw Error(description: error.description)
    }
    do throws(UnixSocket.ListenError) {
      return ListeningSocket(fd: try UnixSocket.listen(path: path), path: path, isInherited: false)
    } catch {
      throw Error(description: error.description)
    }
  }

  /// Closes the socket; removes the socket file only when this process bound it.
  func close() {
    fd.close()
    if !isInherited { FileSystem.remove(path) }
  }
}
