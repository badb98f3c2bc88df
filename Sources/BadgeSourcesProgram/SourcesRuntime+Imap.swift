import BadgeSources
import BadgeSystem

/// IMAP sources' accounts: started, asked and stopped as the core's `.imap` actions say.
extension SourcesRuntime {
  func imap(_ source: String, _ job: ImapJob) {
    switch job {
    case .start(let settings):
      imapAccounts[source]?.stop()
      imapAccounts[source] = nil
      do {
        imapAccounts[source] = try ImapAccount(loop: loop, source: source, settings: settings) {
          [unowned self] event in feed(.imap(source: source, event))
        }
      } catch {
        feed(.imap(source: source, .connection(folder: nil, .failed("cannot start its threads: \(error)", retryAt: 0))))
      }
    case .markRead(let folder, let uids):
      imapAccounts[source]?.markRead(folder: folder, uids: uids)
    case .check:
      imapAccounts[source]?.check()
    case .stop:
      imapAccounts[source]?.stop()
      imapAccounts[source] = nil
    }
  }
}
