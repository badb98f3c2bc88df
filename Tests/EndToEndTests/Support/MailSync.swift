import Foundation

/// mbsync (isync) keeping a local Maildir copy of a `MailServer`'s INBOX, as users fill the
/// Maildirs their mail clients read: IMAPS to `localhost` (mbsync checks the name, not the
/// address) with the server's CA, `SubFolders Verbatim`, and `Sync All` both ways, so a `\Seen`
/// on the server becomes `:2,S` here and an `S` here becomes `\Seen` there on the next `sync()`.
struct MailSync {
  let server: MailServer
  private let config: String

  init(_ server: MailServer) throws {
    self.server = server
    let folder = server.folder
    let inbox = folder.file("local/INBOX")
    try FileManager.default.createDirectory(atPath: folder.file("local"), withIntermediateDirectories: true)
    let passwordFile = try folder.write("alice.password", MailServer.password + "\n")
    config = try folder.write(
      "mbsyncrc",
      """
      IMAPAccount test
      Host localhost
      Port \(server.port)
      User \(MailServer.user)
      PassCmd "cat \(passwordFile)"
      SSLType IMAPS
      CertificateFile \(server.caFile)

      IMAPStore remote
      Account test

      MaildirStore local
      Path \(folder.file("local"))/
      Inbox \(inbox)
      SubFolders Verbatim

      Channel inbox
      Far :remote:
      Near :local:
      Patterns *
      Create Near
      Sync All
      SyncState *

      """)
  }

  /// The local copy of INBOX: a single Maildir.
  var inbox: String { server.folder.file("local/INBOX") }

  /// One `mbsync -a` run, both ways; it waits up to a second by itself when the Maildir changed
  /// in the last second ("sleeping due to recent directory modification").
  func sync() throws {
    let result = try run("mbsync", ["-q", "-c", config, "-a"])
    guard result.status == 0 else {
      throw TestFailure("mbsync failed (\(result.status)): \(result.stdout)\(result.stderr)\ndovecot:\n\(server.log)")
    }
  }
}
