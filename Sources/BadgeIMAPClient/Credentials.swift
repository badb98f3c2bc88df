import BadgeSystem
import CSecret
import Glibc

/// Where an IMAP account's password (or OAuth2 access token) comes from, fetched on the
/// connection's own thread each time it logs in (design §4), so a changed password or a fresh
/// token is used at the next login. The secret is the first line, without its line feed, as
/// bytes: it goes to the server as it is, never through a `String`'s normalising.
public enum Credentials {
  /// The most of a password file or a command's output read: a password is a line.
  public static let maxBytes = 4096

  /// The first line of the file at `path`, which only its owner may read or write (a file
  /// whose mode has any of 0o077 is refused, as ssh refuses a private key).
  public static func passwordFile(_ path: String) throws(CredentialError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw .fileUnreadable(path: path, reason: Errno.current.description) }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else { throw .fileUnreadable(path: path, reason: Errno.current.description) }
    if status.st_mode & S_IFMT == S_IFDIR { throw .fileUnreadable(path: path, reason: "it is a folder") }
    guard status.st_mode & 0o077 == 0 else { throw .fileOpenToOthers(path: path, mode: status.st_mode) }
    var contents = [UInt8](repeating: 0, count: maxBytes)
    var filled = 0
    while filled < contents.count {
      let n = contents.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else { throw .fileUnreadable(path: path, reason: Errno.current.description) }
      if n == 0 { break }
      filled += n
    }
    let line = firstLine(contents[..<filled])
    guard !line.isEmpty else { throw .fileEmpty(path: path) }
    return line
  }

  /// The first line a command prints (`pass show mail`, `secret-tool lookup …`, a token
  /// helper), run as `CredentialCommand` describes.
  public static func command(_ argv: [String], timeoutMs: Int) throws(CredentialError) -> [UInt8] {
    try CredentialCommand.firstLine(argv, timeoutMs: timeoutMs)
  }

  /// The password the Secret Service (gnome-keyring, KeePassXC) keeps under these attributes,
  /// in any collection it can unlock without asking, through libsecret on the session bus of
  /// `DBUS_SESSION_BUS_ADDRESS` (libsecret connects once per process and keeps that bus).
  public static func secretService(_ attributes: [(String, String)]) throws(CredentialError) -> [UInt8] {
    let names = attributes.map { strdup($0.0) }
    let values = attributes.map { strdup($0.1) }
    defer { (names + values).forEach { free($0) } }
    var error: UnsafeMutablePointer<GError>?
    let secret = names.map { UnsafePointer($0) }.withUnsafeBufferPointer { names in
      values.map { UnsafePointer($0) }.withUnsafeBufferPointer { values in
        badged_secret_lookup(names.baseAddress, values.baseAddress, attributes.count, &error)
      }
    }
    if let error {
      let reason = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
      badged_error_free(error)
      throw .secretServiceUnreachable(reason: reason)
    }
    guard let secret else {
      throw .secretNotFound(attributes: attributes.map { "\($0.0)=\($0.1)" }.joined(separator: " "))
    }
    defer { secret_password_free(secret) }
    return firstLine(UnsafeRawBufferPointer(start: secret, count: strlen(secret))[...])
  }

  /// The bytes before the first line feed (all of them when there is none).
  static func firstLine<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
    Array(bytes.prefix { $0 != UInt8(ascii: "\n") })
  }
}
