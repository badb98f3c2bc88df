import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What the tests do to a `MailServer`'s Maildir while dovecot is stopped, as another program
/// on the server would (an MDA writing a file, a local client setting a flag in a name):
/// dovecot finds it all when it next syncs the folder.
extension MailServer {
  /// Writes a message with `subject` into `user`'s `new/`, owned by the mail's owner.
  func place(_ subject: String, user: String = MailServer.user) throws {
    let path = maildir(of: user) + "/new/\(subject).\(getpid()).offline"
    let text = "Subject: \(subject)\r\nMessage-ID: <\(subject)@example.org>\r\n\r\nhello\r\n"
    guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
      throw TestFailure("cannot write \(path)")
    }
    chown(path, Self.mailOwner, Self.mailOwner)
  }

  /// Gives the message with `subject` the flag `S` in its file's name (moving it to `cur/`).
  func flagSeenInMaildir(_ subject: String, user: String = MailServer.user) throws {
    let root = maildir(of: user)
    for sub in ["new", "cur"] {
      for name in try FileManager.default.contentsOfDirectory(atPath: "\(root)/\(sub)") {
        let path = "\(root)/\(sub)/\(name)"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
          text.split(whereSeparator: \.isNewline).contains("Subject: \(subject)")
        else { continue }
        let parts = name.components(separatedBy: ":2,")
        let flags = String(Set((parts.count > 1 ? parts[1] : "") + "S").sorted())
        guard rename(path, "\(root)/cur/\(parts[0]):2,\(flags)") == 0 else {
          throw TestFailure("rename \(path): errno \(errno)")
        }
        return
      }
    }
    throw TestFailure("no message '\(subject)' in \(root)")
  }
}
