import BadgeCore
import BadgeIMAP
import BadgeIMAPClient
import BadgeSources
import BadgeSystem
import Glibc

/// One IMAP connection on a thread of its own: a folder's, kept in IDLE and reconnected after
/// every failure until stopped, or the account's listing of its folders, which ends once
/// listed. The protocol is `ImapSession`'s; here are the socket, TLS, the credentials, the
/// clocks and the back-off.
///
/// The thread blocks in `poll` on the socket and a `WakeSignal` (the loop's requests: mark
/// read, check, stop), with a timeout only for what is due: a reply (30 s of silence, 10 s
/// after a check, and the link is taken for dead), IDLE's renewal (every 29 minutes, under the 30 the RFC lets a server cut
/// it at), or a NOOP every minute on a server without IDLE. An idle account costs no wakeup.
final class ImapConnection: @unchecked Sendable {
  /// What the connection is for.
  enum Purpose: Equatable {
    case folder(String)
    case listing
  }

  /// What the connection tells the loop (posted from its thread).
  enum News {
    case synced([UInt32])
    case changed(added: [UInt32], removed: [UInt32])
    case marked([UInt32])
    case listed([String])
    case state(ImapConnectionState)
  }

  /// The loop's requests, taken by the thread between reads.
  private struct Requests {
    var marks: [[UInt32]] = []
    var check = false
    var stop = false
  }

  /// How a session ended.
  private enum Ending {
    case stopped
    case listed
    /// `slow`: a refusal that retrying soon will not mend (a login, a certificate).
    case failed(String, slow: Bool, synced: Bool)
  }

  /// A silent server while a reply is due: the link is taken for dead.
  static let replyTimeoutMs = 30_000
  /// The same after a check (a resume, IDLE's renewal): a link that died meanwhile is found soon.
  static let checkTimeoutMs = 10_000
  /// IDLE renewed under the server's 30-minute limit (RFC 2177).
  static let idleRenewalMs = 29 * 60_000
  /// A server without IDLE is asked with NOOP this often.
  static let noopIntervalMs = 60_000
  static let connectTimeoutMs = 10_000
  static let credentialTimeoutMs = 10_000

  let settings: ImapSettings
  let purpose: Purpose
  private let post: (News) -> Void
  private var requests = Requests()
  private var mutex = pthread_mutex_t()
  private let wake: WakeSignal
  private var thread = pthread_t()
  private var joined = false
  /// Marks asked while no session could store them (none connected, or its folder not yet
  /// synced), stored once the next one is: a click while the server is away is not lost.
  /// The thread's alone.
  private var heldMarks: [UInt32] = []
  /// The batches handed to the session whose `.marked` has not come, oldest first: held again
  /// if the connection ends before the server took them. The thread's alone.
  private var storing: [[UInt32]] = []
  /// The most UIDs held: a watermark covers at most the unseen messages, far fewer.
  static let maxHeldMarks = 1 << 20

  /// Starts the thread; `post` is called on it with the connection's news.
  ///
  /// - Throws: `SystemError` when the wake signal or the thread cannot be made.
  init(settings: ImapSettings, purpose: Purpose, post: @escaping (News) -> Void) throws(SystemError) {
    self.settings = settings
    self.purpose = purpose
    self.post = post
    pthread_mutex_init(&mutex, nil)
    wake = try WakeSignal()
    thread = try startThread { [self] in run() }
  }

  /// Marks `uids` read on the server (the session stores only those still unseen).
  func markRead(_ uids: [UInt32]) { request { $0.marks.append(uids) } }

  /// Proves the connection alive now (after a resume), or retries at once if it is waiting.
  func check() { request { $0.check = true } }

  /// Ends the session (closing the socket without a goodbye) and waits for the thread.
  func stop() {
    guard !joined else { return }
    request { $0.stop = true }
    pthread_join(thread, nil)
    joined = true
  }

  private func request(_ change: (inout Requests) -> Void) {
    pthread_mutex_lock(&mutex)
    change(&requests)
    pthread_mutex_unlock(&mutex)
    wake.signal()
  }

  private func takeRequests() -> Requests {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    let taken = requests
    requests.marks = []
    requests.check = false
    return taken
  }

  // MARK: The thread

  private func run() {
    var retry = Backoff(initial: 1_000_000, maximum: 300_000_000)
    var refused = Backoff(initial: 30_000_000, maximum: 1_800_000_000)
    var random = SystemRandomNumberGenerator()
    var resume: ImapMailboxState?
    while true {
      switch session(resume: &resume) {
      case .stopped, .listed:
        return
      case .failed(let why, let slow, let synced):
        // What the server may not have stored is stored after the next sync (a UID stored
        // twice is read twice: nothing changes).
        for uids in storing { hold(uids) }
        storing = []
        if synced {
          retry.succeeded()
          refused.succeeded()
        }
        let delay = slow ? refused.failed(using: &random) : retry.failed(using: &random)
        post(.state(.failed(why, retryAt: BootClock.boottimeMicroseconds + delay)))
        if waitOrStop(milliseconds: Int(delay / 1000)) { return }
      }
    }
  }

  /// Waits `milliseconds`, or less when asked to check (a resume: try now); true when asked to stop.
  private func waitOrStop(milliseconds: Int) -> Bool {
    var pollfd = Glibc.pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0)
    _ = poll(&pollfd, 1, Int32(clamping: milliseconds))
    wake.drain()
    let taken = takeRequests()
    for uids in taken.marks { hold(uids) }
    return taken.stop
  }

  private func hold(_ uids: [UInt32]) {
    heldMarks += uids
    if heldMarks.count > Self.maxHeldMarks { heldMarks.removeFirst(heldMarks.count - Self.maxHeldMarks) }
  }

  /// Hands `uids` to the session to store, remembered until the server took them.
  private func mark(_ uids: [UInt32], in session: inout ImapSession) {
    storing.append(uids)
    session.markRead(uids)
  }

  /// One connection, from connect to its end.
  private func session(resume: inout ImapMailboxState?) -> Ending {
    let host = settings.host
    let transport: ImapTransport
    do {
      transport = try ImapTransport.connect(host: host, port: settings.port, timeoutMs: Self.connectTimeoutMs)
    } catch {
      return .failed(error.description, slow: false, synced: false)
    }
    defer { transport.close() }
    if settings.security == .tls {
      do {
        try transport.startTLS(serverName: host, caFile: settings.caFile, timeoutMs: Self.connectTimeoutMs)
      } catch {
        return .failed(error.description, slow: error.description.contains("certificate"), synced: false)
      }
    }
    var folder: String?
    if case .folder(let name) = purpose { folder = name }
    var session = ImapSession(
      username: settings.username, auth: auth, startTLS: settings.security == .startTLS, mailbox: folder,
      resume: resume)
    session.connected()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var synced = false
    var lastNudge = ImapConnection.monotonicMs()
    var checking = false
    while true {
      // What an output leads to (a credential given, TLS up) is more output: taken until none.
      var outputs = session.takeOutput()
      while !outputs.isEmpty {
        for output in outputs {
          switch output {
          case .send(let bytes):
            do { try transport.write(bytes) } catch { return .failed(error.description, slow: false, synced: synced) }
          case .startTLS:
            do {
              try transport.startTLS(serverName: host, caFile: settings.caFile, timeoutMs: Self.connectTimeoutMs)
            } catch {
              return .failed(error.description, slow: error.description.contains("certificate"), synced: synced)
            }
            session.tlsEstablished()
          case .needCredential:
            do { session.credential(try credential()) } catch {
              return .failed(error.description, slow: true, synced: synced)
            }
          case .listed(let names):
            post(.listed(names))
            return .listed
          case .synced(_, let unseen):
            synced = true
            // The connection up first, then its set: the core takes the set with the source
            // ok in one turn, so the count it writes is fresh, never the resynced count stale.
            post(.state(.ok))
            post(.synced(unseen))
            if !heldMarks.isEmpty {
              mark(heldMarks, in: &session)
              heldMarks = []
            }
          case .changed(let added, let removed):
            post(.changed(added: added, removed: removed))
          case .marked(let uids):
            if !storing.isEmpty { storing.removeFirst() }
            post(.marked(uids))
          case .idling:
            lastNudge = ImapConnection.monotonicMs()
          case .failed(let failure):
            resume = session.mailboxState ?? resume
            return .failed(failure.description, slow: ImapConnection.isSlow(failure), synced: synced)
          }
        }
        outputs = session.takeOutput()
      }
      resume = session.mailboxState ?? resume
      let taken = takeRequests()
      if taken.stop { return .stopped }
      if !taken.marks.isEmpty || taken.check {
        for uids in taken.marks {
          if synced { mark(uids, in: &session) } else { hold(uids) }
        }
        if taken.check {
          // The shorter timeout is for the round trip the check starts on an idle connection;
          // a command already awaiting its reply (a login) keeps the usual one.
          let busy = session.awaitingReply
          session.check()
          lastNudge = ImapConnection.monotonicMs()
          checking = checking || (!busy && session.awaitingReply)
        }
        continue
      }
      let timeout: Int
      if session.awaitingReply {
        timeout = checking ? Self.checkTimeoutMs : Self.replyTimeoutMs
      } else {
        checking = false
        let interval = session.idles ? Self.idleRenewalMs : Self.noopIntervalMs
        timeout = max(0, interval - (ImapConnection.monotonicMs() - lastNudge))
      }
      let read = buffer.withUnsafeMutableBytes { raw in
        Result { () throws(TransportError) in try transport.read(into: raw, timeoutMs: timeout, wake: wake.fd) }
      }
      let outcome: ImapTransport.ReadOutcome
      switch read {
      case .success(let value): outcome = value
      case .failure(let error): return .failed(error.description, slow: false, synced: synced)
      }
      switch outcome {
      case .data(let count):
        buffer.withUnsafeBytes { raw in session.received(UnsafeRawBufferPointer(rebasing: raw[..<count])) }
      case .timedOut:
        guard !session.awaitingReply else {
          return .failed("no answer from \(host) in \(timeout / 1000) s", slow: false, synced: synced)
        }
        session.check()
        lastNudge = ImapConnection.monotonicMs()
        checking = session.awaitingReply
      case .woken:
        wake.drain()
      case .closed:
        session.closed()
      }
    }
  }

  /// How the session logs in.
  private var auth: ImapAuth {
    guard case .oauth2(_, let mechanism) = settings.credential else { return .login }
    switch mechanism {
    case .xoauth2: return .xoauth2
    case .oauthbearer: return .oauthbearer(host: settings.host, port: settings.port)
    }
  }

  /// The password or token, asked anew for every login (a token expires; a password changes).
  private func credential() throws(CredentialError) -> [UInt8] {
    switch settings.credential {
    case .passwordFile(let path): return try Credentials.passwordFile(path)
    case .passwordCommand(let words): return try Credentials.command(words, timeoutMs: Self.credentialTimeoutMs)
    case .secretService(let attributes):
      return try Credentials.secretService(attributes.map { ($0.name, $0.value) })
    case .oauth2(let words, _): return try Credentials.command(words, timeoutMs: Self.credentialTimeoutMs)
    }
  }

  /// Failures that retrying soon will not mend: waited out longer.
  private static func isSlow(_ failure: ImapFailure) -> Bool {
    switch failure {
    case .loginRefused, .noStartTLS, .mailboxRefused: return true
    case .bye, .violation: return false
    }
  }

  static func monotonicMs() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000
  }
}
