/// Why a password or token could not be had, as one line for the source's state and the log.
public enum CredentialError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The password file cannot be opened or read (the reason is the system's).
  case fileUnreadable(path: String, reason: String)
  /// The password file's mode lets its group or others in (`mode & 0o077`).
  case fileOpenToOthers(path: String, mode: UInt32)
  /// The password file's first line is empty.
  case fileEmpty(path: String)
  /// The command cannot start, failed, printed nothing or too much (`reason` says which).
  case commandFailed(command: String, reason: String)
  /// The command outlived its timeout; its process group was killed.
  case commandTimedOut(command: String, timeoutMs: Int)
  /// The Secret Service has no item with these attributes (`service=imap user=alice`).
  case secretNotFound(attributes: String)
  /// The Secret Service cannot be asked (no session bus, no keyring daemon, a locked keyring).
  case secretServiceUnreachable(reason: String)

  public var description: String {
    switch self {
    case .fileUnreadable(let path, let reason): "cannot read password_file '\(path)': \(reason)"
    case .fileOpenToOthers(let path, let mode):
      "password_file '\(path)' is readable by others (mode \(Self.octal(mode))); chmod 600 it"
    case .fileEmpty(let path): "password_file '\(path)' is empty"
    case .commandFailed(let command, let reason): "'\(command)' \(reason)"
    case .commandTimedOut(let command, let timeoutMs): "'\(command)' did not finish within \(timeoutMs) ms"
    case .secretNotFound(let attributes): "no secret found for \(attributes)"
    case .secretServiceUnreachable(let reason): "the Secret Service is not reachable: \(reason)"
    }
  }

  /// A file mode as `chmod` writes it: 0644.
  private static func octal(_ mode: UInt32) -> String {
    let digits = String(mode & 0o7777, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
