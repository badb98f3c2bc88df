import BadgeIMAPClient
import BadgeSystem
import Foundation
import Testing

/// The Secret Service for real: gnome-keyring-daemon on a private session bus the test starts,
/// its login keyring unlocked with a password on standard input, items stored with
/// `secret-tool`, and the lookup made in this process through libsecret.
///
/// libsecret connects to the session bus once per process and keeps it, so there is one bus
/// for this process and one test, which looks first with no bus to reach (a failed connection
/// is not kept), then sets `DBUS_SESSION_BUS_ADDRESS` to its bus before the first lookup that
/// reaches one. No other test calls libsecret.
@Suite(.serialized) struct SecretServiceTests {
  /// A dbus-daemon on a socket in `folder`, and gnome-keyring-daemon on it with an unlocked
  /// login keyring in `folder` (its home), which ends when the bus does.
  final class PrivateKeyring {
    let folder: TestFolder
    let address: String
    let environment: [String: String]
    private let bus: Process

    init() throws {
      folder = try TestFolder("imap-keyring")
      for name in ["home", "run"] {
        try FileManager.default.createDirectory(
          atPath: folder.file(name), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      }
      address = "unix:path=\(folder.file("bus"))"
      environment = [
        "HOME": folder.file("home"), "XDG_RUNTIME_DIR": folder.file("run"),
        "XDG_DATA_HOME": folder.file("home/.local/share"), "DBUS_SESSION_BUS_ADDRESS": address,
        "PATH": "/usr/bin:/bin",
      ]
      bus = Process()
      bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
      bus.arguments = ["--session", "--nofork", "--nopidfile", "--address=\(address)", "--print-address"]
      bus.environment = environment
      let printed = Pipe()
      bus.standardOutput = printed
      bus.standardError = FileHandle.nullDevice
      try bus.run()
      // The address is printed once the bus listens.
      guard !printed.fileHandleForReading.availableData.isEmpty else { throw TestFailure("dbus-daemon did not start") }
      // gnome-keyring-daemon stays behind holding whatever descriptors it was given: it is
      // started with no pipe of ours, so that waiting for it means waiting for its exit only.
      try Self.script(
        """
        printf keyring-pass | gnome-keyring-daemon --unlock --components=secrets
        gdbus wait --session --timeout 5 org.freedesktop.secrets
        """, environment: environment, in: folder)
    }

    /// SIGKILL: the test process blocks SIGTERM in its threads, and Foundation's children
    /// inherit that mask. gnome-keyring-daemon ends with its bus.
    deinit {
      kill(bus.processIdentifier, SIGKILL)
      bus.waitUntilExit()
    }

    func store(_ secret: String, label: String, _ attributes: [String]) throws {
      let words = attributes.joined(separator: " ")
      try Self.script(
        "printf '\(secret)' | secret-tool store --label='\(label)' \(words)", environment: environment, in: folder)
    }

    /// Runs `text` with sh, its output and errors into a file, and waits for its exit.
    static func script(_ text: String, environment: [String: String], in folder: TestFolder) throws {
      let log = folder.file("script.log")
      _ = FileManager.default.createFile(atPath: log, contents: nil)
      // posix_spawn and waitpid: Foundation's Process missed this child's end here.
      let pid = try ChildProcess.spawn(
        ["/bin/sh", "-c", "exec >>\(log) 2>&1 </dev/null\n" + text],
        environment: environment.map { "\($0.key)=\($0.value)" })
      var status: CInt = 0
      while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
      guard status == 0 else {
        throw TestFailure("\(text) failed: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
      }
    }
  }

  @Test func findsTheSecretStoredUnderItsAttributes() throws {
    let saved = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"]
    defer {
      if let saved { setenv("DBUS_SESSION_BUS_ADDRESS", saved, 1) } else { unsetenv("DBUS_SESSION_BUS_ADDRESS") }
    }
    let folder = try TestFolder("imap-nobus")
    setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=\(folder.file("no-bus"))", 1)
    #expect {
      try Credentials.secretService([("service", "imap"), ("user", "alice")])
    } throws: { error in
      (error as? CredentialError).map { "\($0)".hasPrefix("the Secret Service is not reachable: ") } ?? false
    }

    let keyring = try PrivateKeyring()
    try keyring.store("alice-secret", label: "badged imap alice", ["service", "imap", "user", "alice"])
    try keyring.store("bob-secret\nnotes", label: "badged imap bob", ["service", "imap", "user", "bob"])
    setenv("DBUS_SESSION_BUS_ADDRESS", keyring.address, 1)

    #expect(try Credentials.secretService([("service", "imap"), ("user", "alice")]) == Array("alice-secret".utf8))
    #expect(try Credentials.secretService([("user", "bob"), ("service", "imap")]) == Array("bob-secret".utf8))
    #expect(throws: CredentialError.secretNotFound(attributes: "service=imap user=carol")) {
      try Credentials.secretService([("service", "imap"), ("user", "carol")])
    }
    #expect(
      CredentialError.secretNotFound(attributes: "service=imap user=carol").description
        == "no secret found for service=imap user=carol")
  }
}
