import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An imap source `inbox` end to end on a server of the test's own (dovecot, or the hostile
/// server): the INBOX of `username` at `server` counted into channel `inbox`, logging in with
/// the `credential` line given (`password_file = …`, `oauth2_token_command = …`), with
/// `environment` added for badged-sources (a keyring's bus), and `serverContext` (the
/// server's own log) in a failure's message.
final class ImapStage: SourcesStage {
  private let serverContext: () -> String

  init(
    folder: TemporaryFolder, server: String, credential: String, caFile: String? = nil,
    username: String = MailServer.user, more: String = "", environment: [String: String] = [:],
    serverContext: @escaping () -> String
  ) throws {
    self.serverContext = serverContext
    try super.init(
      folder: folder,
      config: """
        [source.inbox]
        kind = imap
        server = \(server)
        username = \(username)
        \(credential)
        \(caFile.map { "ca_file = \($0)" } ?? "")
        \(more)

        """, environment: environment)
  }

  /// A `password_file` in `folder` holding `password`, with `mode`: its key's line.
  static func passwordFile(in folder: TemporaryFolder, _ password: String, mode: mode_t = 0o600) throws -> String {
    let path = try folder.write("password", password + "\n")
    chmod(path, mode)
    return "password_file = \(path)"
  }

  override var context: String { super.context + "\nserver:\n\(serverContext())" }

  /// How many lines of badged-sources's log contain `text`.
  func logLines(containing text: String) -> Int { sources.logLines(containing: text) }

  /// The source's `SOURCES` line once it is `retrying` (after its first failed attempt).
  func awaitRetrying() throws -> String { try awaitStatus { $0.contains(" state=retrying ") } }

  /// Ends badged-sources and expects it to exit 0.
  func stop() throws {
    let status = sources.stop()
    guard status == 0 else { throw TestFailure("badged-sources exited \(status)\n\(context)") }
  }
}
