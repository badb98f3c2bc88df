import BadgeConfig
import BadgeCore
import BadgeMesh
import BadgeSystem
import Glibc

/// The files `[mqtt]` names, checked and read once at start: the password (its file private
/// to its owner), the client key (likewise), the CA and client certificates (readable).
///
/// Each refusal names the key's place in the config file, as the config's own errors do.
struct BrokerSecrets {
  var password: String?

  /// The longest password file read.
  static let maxPasswordBytes = 4096

  static func load(_ config: MeshConfig) throws(ConfigError) -> BrokerSecrets {
    var secrets = BrokerSecrets()
    if let path = config.passwordFile {
      let text = try readPrivate(path, key: .passwordFile, config)
      let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
      let password = line.hasSuffix("\r") ? line.dropLast() : line
      guard !password.isEmpty else {
        throw refusal(config, .passwordFile, "password_file '\(path)' is empty; its first line is the password")
      }
      secrets.password = String(password)
    }
    if let path = config.keyFile { _ = try readPrivate(path, key: .keyFile, config) }
    for (key, path) in [(MeshConfig.Key.caFile, config.caFile), (.certFile, config.certFile)] {
      guard let path else { continue }
      guard access(path, R_OK) == 0 else {
        throw refusal(config, key, "Failed to read \(key.rawValue) '\(path)': \(Errno.current)")
      }
    }
    return secrets
  }

  /// A file that only its owner may read: refused when its group or others can.
  private static func readPrivate(_ path: String, key: MeshConfig.Key, _ config: MeshConfig) throws(ConfigError)
    -> String
  {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { throw refusal(config, key, "Failed to read \(key.rawValue) '\(path)': \(Errno.current)") }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      throw refusal(config, key, "\(key.rawValue) '\(path)' is not a regular file")
    }
    let mode = status.st_mode & 0o777
    guard mode & 0o044 == 0 else {
      throw refusal(
        config, key,
        "\(key.rawValue) '\(path)' can be read by its group or others (mode 0\(String(mode, radix: 8))); refusing it until only its owner can: chmod 600 '\(path)'"
      )
    }
    var bytes = [UInt8](repeating: 0, count: maxPasswordBytes + 1)
    let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
    guard count >= 0 else { throw refusal(config, key, "Failed to read \(key.rawValue) '\(path)': \(Errno.current)") }
    return String(decoding: bytes[..<count], as: UTF8.self)
  }

  private static func refusal(_ config: MeshConfig, _ key: MeshConfig.Key, _ reason: String) -> ConfigError {
    ConfigError(file: config.file, line: config.lines[key] ?? 0, reason: reason)
  }
}
