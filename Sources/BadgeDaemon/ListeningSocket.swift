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

  /// What lets other users near the socket: a warning for the socket file when it is looser
  /// than 0600 and for its folder when looser than 0700. Either may come from a service
  /// manager's `SocketMode=` or a folder made by someone else; badged does not change them
  /// (the peer check refuses other users anyway), but says so at start.
  func accessWarnings() -> [String] {
    guard path.hasPrefix("/") else { return [] }
    var warnings: [String] = []
    if let mode = FileSystem.looserMode(path, than: 0o600) {
      warnings.append(
        "The socket '\(path)' has mode \(octal(mode)), looser than 0600: other users may connect (and are refused).")
    }
    let folder = FileSystem.folder(of: path)
    if let mode = FileSystem.looserMode(folder, than: 0o700) {
      warnings.append("The socket's folder '\(folder)' has mode \(octal(mode)), looser than 0700.")
    }
    return warnings
  }

  private func octal(_ mode: UInt32) -> String {
    let digits = String(mode, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  /// Closes the socket; removes the socket file only when this process bound it.
  func close() {
    fd.close()
    if !isInherited { FileSystem.remove(path) }
  }
}
