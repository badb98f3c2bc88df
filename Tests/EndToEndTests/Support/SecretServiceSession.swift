import Foundation

/// The Secret Service as a desktop session has it, for one test: a private session bus
/// (`SessionBus`) and the real gnome-keyring-daemon on it with its `login` keyring unlocked
/// (`--unlock` reads the keyring's password from standard input; started any other way, the
/// first store asks a prompter for a new keyring's password and fails without a display), in a
/// home and runtime folder of the test's own. A program given `environment` finds the same
/// keyring, through libsecret or `secret-tool`.
///
/// Both daemons are the test's children and end with it: the keyring daemon first, then the
/// bus (the daemon also leaves when its bus goes).
final class SecretServiceSession {
  let folder: TemporaryFolder
  let bus: SessionBus
  private var keyring: Child?

  init() throws {
    folder = try TemporaryFolder()
    for name in ["home", "run"] {
      try FileManager.default.createDirectory(
        atPath: folder.file(name), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
    bus = try SessionBus(folder: folder)
    let keyring = try Child(
      ["gnome-keyring-daemon", "--foreground", "--unlock", "--components=secrets"],
      environment: Child.environment(environment), stdin: .pipe, stderr: .file(folder.file("keyring.log")))
    self.keyring = keyring
    let password = Array("keyring-pass".utf8)
    _ = password.withUnsafeBytes { write(keyring.input, $0.baseAddress, $0.count) }
    keyring.closeInput()
    // Until the daemon owns its name: a client before that would start a second one through
    // D-Bus activation.
    let waited = try run(
      "gdbus", ["wait", "--session", "--timeout", "10", "org.freedesktop.secrets"], environment: environment)
    guard waited.status == 0, keyring.isRunning else {
      throw TestFailure("gnome-keyring-daemon did not start: \(waited.stderr)\(log)")
    }
  }

  deinit { stop() }

  /// What a program needs to reach this keyring: the bus, and the home, runtime and data
  /// folders the keyring lives in.
  var environment: [String: String] {
    [
      "DBUS_SESSION_BUS_ADDRESS": bus.address, "HOME": folder.file("home"), "XDG_RUNTIME_DIR": folder.file("run"),
      "XDG_DATA_HOME": folder.file("home/.local/share"),
    ]
  }

  /// The keyring daemon's process id while it runs.
  var keyringPID: Int32? { keyring.flatMap { $0.isRunning ? $0.pid : nil } }

  /// What the keyring daemon said.
  var log: String { (try? String(contentsOfFile: folder.file("keyring.log"), encoding: .utf8)) ?? "" }

  /// Stores `secret` under `attributes` (`service imap user alice`) with `secret-tool store`,
  /// as a user does, in the login keyring.
  func store(attributes: [(String, String)], secret: String, label: String = "badged test") throws {
    let file = try folder.write("secret-\(UUID().uuidString.prefix(6))", secret)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let arguments = ["secret-tool", "store", "--label=\(label)"] + attributes.flatMap { [$0.0, $0.1] }
    let result = try capture(
      ["/bin/sh", "-c", "exec \"$@\" < \"$0\"", file] + arguments, environment: Child.environment(environment))
    guard result.status == 0 else { throw TestFailure("secret-tool store failed: \(result.stderr)\(log)") }
  }

  /// The secret stored under `attributes`, as `secret-tool lookup` finds it; nil when none is.
  func lookup(attributes: [(String, String)]) throws -> String? {
    let result = try run("secret-tool", ["lookup"] + attributes.flatMap { [$0.0, $0.1] }, environment: environment)
    return result.status == 0 ? result.stdout : nil
  }

  /// Ends the keyring daemon, then the bus.
  func stop() {
    keyring?.signal(SIGTERM)
    keyring?.wait()
    keyring = nil
    bus.stop()
  }
}
