/// One IMAP connection's protocol, without I/O: fed the server's bytes and the caller's events,
/// it answers with what to send and what changed (`takeOutput`). It logs in (STARTTLS first
/// when asked, never a password in the clear), selects the mailbox and keeps the exact set of
/// its unseen UIDs (neither `\Seen` nor `\Deleted`) from then on, in IDLE where the server has
/// it. A listing session (`mailbox` nil) lists the mailboxes and logs out.
///
/// One command is in flight at a time; work asked for meanwhile (new mail to fetch, a mark
/// read, a liveness check) waits in `queue`, and IDLE is left (DONE) to run it.
public struct ImapSession: Sendable {
  enum Phase: Equatable {
    case unconnected, greeting, notAuthenticated, awaitingTLS, awaitingCredential, authenticated, selecting, selected
    case loggingOut, over
  }

  /// What the command in flight was sent for.
  enum Step: Equatable {
    case capability, startTLS, login, enable, list, logout, select, noop, fetchNew
    case authenticate(credentialSent: Bool)
    case searchAll, searchUnseen
    case store([UInt32])
    /// IDLE: `entered` once its "+" came, `ending` once DONE went.
    case idle(entered: Bool, ending: Bool)
  }

  /// Work that waits for the command in flight (and leaves IDLE).
  enum Work: Equatable {
    case fetchNew, noop
    case store([UInt32])
  }

  let username: String
  let auth: ImapAuth
  let startTLS: Bool
  let mailbox: String?
  let resume: ImapMailboxState?

  var parser = ImapResponseParser()
  var encoder = ImapCommandEncoder()
  var outputs: [ImapOutput] = []
  var phase = Phase.unconnected
  var pending: (tag: String, step: Step)?
  var queue: [Work] = []
  var tlsDone = false
  var enableAsked = false
  /// A SASL initial response kept for the server's "+" (no SASL-IR).
  var initialResponse: [UInt8]?
  /// The mailbox names a listing session has seen.
  var names: [String] = []

  public internal(set) var capabilities: Set<String> = []
  /// ENABLEd by the server (QRESYNC, CONDSTORE).
  var enabled: Set<String> = []

  // The selected mailbox.
  var uidValidity: UInt32?
  var highestModSeq: UInt64?
  /// The mod-sequence before an EXISTS whose messages are not fetched yet: the server's later
  /// HIGHESTMODSEQ covers them, so a resume from it would miss them.
  var modSeqBeforeUnfetched: UInt64??
  var modSeqKept = true
  var uidNext: UInt32 = 1
  /// The unseen set, nil until known (SEARCH, or the resumed set once SELECT is done).
  var unseen: Set<UInt32>?
  /// `synced` was said: changes from now on are `changed`.
  var synced = false
  /// Sequence number - 1 → UID (0: not fetched yet), kept without QRESYNC.
  var sequence: [UInt32]?
  var added: Set<UInt32> = []
  var removed: Set<UInt32> = []

  /// mailbox nil: a listing session (login, LIST "" "*", `.listed`, LOGOUT).
  public init(username: String, auth: ImapAuth, startTLS: Bool, mailbox: String?, resume: ImapMailboxState?) {
    self.username = username
    self.auth = auth
    self.startTLS = startTLS
    self.mailbox = mailbox
    self.resume = resume
  }

  /// Whether the server has IDLE: without it, the caller calls `check()` every 60 s (a NOOP).
  public var idles: Bool { capabilities.contains("IDLE") }

  /// A command's tagged reply, IDLE's "+", or the greeting is due: the caller's reply timeout runs.
  public var awaitingReply: Bool {
    if phase == .greeting { return true }
    guard let pending else { return false }
    return pending.step != .idle(entered: true, ending: false)
  }

  /// For the next connection's resume: known once the folder's set is.
  public var mailboxState: ImapMailboxState? {
    guard synced, let uidValidity, let unseen else { return nil }
    let modSeq = modSeqBeforeUnfetched ?? highestModSeq
    let resumable = enabled.contains("QRESYNC") && modSeqKept
    return ImapMailboxState(uidValidity: uidValidity, highestModSeq: resumable ? modSeq : nil, unseen: unseen)
  }

  public mutating func takeOutput() -> [ImapOutput] {
    defer { outputs = [] }
    return outputs
  }

  /// The transport is up (TLS already for imaps): the greeting comes next.
  public mutating func connected() {
    guard phase == .unconnected else { return }
    phase = .greeting
  }

  /// The server closed the connection.
  public mutating func closed() {
    switch phase {
    case .over: return
    case .loggingOut: phase = .over
    default: fail(.bye("connection closed"))
    }
  }

  /// STARTTLS's handshake is done: the capabilities are asked again (RFC 3501 6.2.1).
  public mutating func tlsEstablished() {
    guard phase == .awaitingTLS else { return }
    tlsDone = true
    capabilities = []
    phase = .notAuthenticated
    advance()
  }

  /// The password (login) or the access token (XOAUTH2, OAUTHBEARER).
  public mutating func credential(_ secret: [UInt8]) {
    guard phase == .awaitingCredential else { return }
    phase = .notAuthenticated
    switch auth {
    case .login:
      guard !capabilities.contains("LOGINDISABLED") else {
        return fail(.loginRefused("the server does not accept LOGIN here (LOGINDISABLED)"))
      }
      send(.login(username: username, password: secret), .login)
    case .xoauth2: authenticate("XOAUTH2", ImapSASL.xoauth2(username: username, token: secret))
    case .oauthbearer(let host, let port):
      authenticate("OAUTHBEARER", ImapSASL.oauthbearer(username: username, host: host, port: port, token: secret))
    }
  }

  /// Marks these UIDs read on the server (those still unseen; others are left alone).
  public mutating func markRead(_ uids: [UInt32]) {
    guard phase == .selected, let unseen else { return }
    let wanted = Set(uids).intersection(unseen).sorted()
    guard !wanted.isEmpty else { return outputs.append(.marked([])) }
    enqueue(.store(wanted))
  }

  /// Proves the connection alive: DONE, NOOP, IDLE again (a NOOP alone without IDLE).
  public mutating func check() {
    guard phase == .selected, !queue.contains(.noop) else { return }
    enqueue(.noop)
  }

  /// Raw bytes from the server.
  public mutating func received(_ bytes: UnsafeRawBufferPointer) {
    guard phase != .over, phase != .unconnected else { return }
    for response in parser.feed(bytes) {
      // After STARTTLS's OK the next bytes are TLS: any response before it was injected in the clear.
      guard phase != .awaitingTLS else { return fail(.violation("bytes after STARTTLS's OK, before TLS")) }
      handle(response)
      if phase == .over { return }
      flushChanges()
    }
    if let failure = parser.failure { return fail(failure) }
    if phase == .awaitingTLS {
      guard parser.pendingBytes == 0 else { return fail(.violation("bytes after STARTTLS's OK, before TLS")) }
      outputs.append(.startTLS)
    }
  }

  mutating func fail(_ failure: ImapFailure) {
    guard phase != .over else { return }
    flushChanges()
    phase = .over
    pending = nil
    outputs.append(.failed(failure))
  }

  mutating func send(_ command: ImapCommand, _ step: Step) {
    do {
      let (tag, bytes) = try encoder.encode(command, literals: ImapLiterals(capabilities: capabilities))
      pending = (tag, step)
      outputs.append(.send(bytes))
    } catch {
      fail(error)
    }
  }

  private mutating func authenticate(_ mechanism: String, _ response: [UInt8]) {
    if capabilities.contains("SASL-IR") {
      send(.authenticate(mechanism: mechanism, initialResponse: response), .authenticate(credentialSent: true))
    } else {
      initialResponse = response
      send(.authenticate(mechanism: mechanism, initialResponse: nil), .authenticate(credentialSent: false))
    }
  }

  /// Sends the next command when none is in flight: the login's steps, the mailbox's sync, the
  /// queue, IDLE. Changes are told first, so that they come in the same order however the
  /// server's bytes were cut.
  mutating func advance() {
    guard pending == nil else { return }
    flushChanges()
    switch phase {
    case .notAuthenticated:
      if capabilities.isEmpty { return send(.capability, .capability) }
      if startTLS, !tlsDone {
        guard capabilities.contains("STARTTLS") else { return fail(.noStartTLS) }
        return send(.startTLS, .startTLS)
      }
      phase = .awaitingCredential
      outputs.append(.needCredential)
    case .authenticated:
      if capabilities.isEmpty { return send(.capability, .capability) }
      guard let mailbox else { return send(.list(reference: "", pattern: "*"), .list) }
      if !enableAsked, capabilities.contains("ENABLE") {
        enableAsked = true
        if capabilities.contains("QRESYNC") { return send(.enable(["QRESYNC"]), .enable) }
        if capabilities.contains("CONDSTORE") { return send(.enable(["CONDSTORE"]), .enable) }
      }
      selectMailbox(mailbox)
    case .selected: nextWork()
    default: return
    }
  }
}
