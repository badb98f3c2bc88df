/// What each server response does to the session: the login's replies, the mailbox's data, the
/// replies to the commands in flight.
extension ImapSession {
  mutating func handle(_ response: ImapResponse) {
    switch response {
    case .tagged(let tag, let status, let code, let text):
      guard let pending, pending.tag == tag else { return fail(.violation("a reply to no command (\(tag))")) }
      self.pending = nil
      replied(pending.step, status, code, text)
    case .status(let status, let code, let text):
      untaggedStatus(status, code, text)
    case .capability(let names): capabilities = names
    case .enabled(let names): enabled.formUnion(names)
    case .continuation: continued()
    case .list(let flags, _, let name):
      let unselectable = flags.contains { ["\\NOSELECT", "\\NONEXISTENT"].contains($0.uppercased()) }
      if pending?.step == .list, !unselectable { names.append(name) }
    default:
      guard phase == .selecting || phase == .selected else { return }
      mailboxData(response)
    }
  }

  private mutating func untaggedStatus(_ status: ImapStatus, _ code: ImapResponseCode?, _ text: String) {
    switch status {
    case .bye:
      if phase != .loggingOut { fail(.bye(text)) }
      return
    case .preauth:
      guard phase == .greeting else { return fail(.violation("PREAUTH after the greeting")) }
      // STARTTLS is for a session not yet authenticated: a PREAUTH in the clear cannot be secured.
      guard !startTLS else { return fail(.noStartTLS) }
      phase = .authenticated
    case .ok where phase == .greeting: phase = .notAuthenticated
    case .ok, .no, .bad:
      guard phase != .greeting else { return fail(.violation("a greeting of \(status.rawValue)")) }
    }
    if let code { responseCode(code) }
    if pending == nil { advance() }
  }

  private mutating func responseCode(_ code: ImapResponseCode) {
    switch code {
    case .capability(let names): capabilities = names
    case .uidValidity(let value):
      if synced, value != uidValidity { return fail(.violation("UIDVALIDITY changed while selected")) }
      if value != uidValidity, resume?.uidValidity != value { unseen = nil }
      uidValidity = value
    case .uidNext(let value): uidNext = max(uidNext, value)
    case .highestModSeq(let value): highestModSeq = max(highestModSeq ?? 0, value)
    case .noModSeq: modSeqKept = false
    default: break
    }
  }

  /// The server's "+": the SASL exchange, or IDLE entered.
  private mutating func continued() {
    switch pending?.step {
    case .authenticate(credentialSent: false)?:
      pending?.step = .authenticate(credentialSent: true)
      outputs.append(.send((initialResponse ?? []) + [0x0D, 0x0A]))
      initialResponse = nil
    case .authenticate(credentialSent: true)?:
      // A refused token's challenge (`+ <base64 JSON>`): an empty response, then the tagged NO.
      outputs.append(.send([0x0D, 0x0A]))
    case .idle(entered: false, let ending)?:
      pending?.step = .idle(entered: true, ending: ending)
      outputs.append(.idling)
      if !queue.isEmpty { leaveIdle() }
    default:
      fail(.violation("a continuation no command asked for"))
    }
  }

  private mutating func replied(_ step: Step, _ status: ImapStatus, _ code: ImapResponseCode?, _ text: String) {
    let ok = status == .ok
    if let code { responseCode(code) }
    if phase == .over { return }
    switch step {
    case .login, .authenticate:
      // The server's words with their code: `[AUTHENTICATIONFAILED]` (RFC 5530) tells a wrong
      // password from `[UNAVAILABLE]` where dovecot's text alone may not.
      guard ok else { return fail(.loginRefused(code.map { "\($0.bracketed) \(text)" } ?? text)) }
      if case .capability(let names)? = code { capabilities = names } else { capabilities = [] }
      phase = .authenticated
    case .startTLS:
      guard ok else { return fail(.violation("STARTTLS refused: \(text)")) }
      // `.startTLS` is asked for once the rest of the read proves empty (`received`).
      phase = .awaitingTLS
      return
    case .enable: break
    case .select:
      guard ok else { return fail(.mailboxRefused(text)) }
      selected()
    case .list:
      guard ok else { return fail(.violation("LIST refused: \(text)")) }
      outputs.append(.listed(names))
      phase = .loggingOut
      return send(.logout, .logout)
    case .logout:
      phase = .over
      return
    case .store(let uids):
      guard ok else { return fail(.violation("STORE refused: \(text)")) }
      outputs.append(.marked(uids))
      for uid in uids { setUnseen(uid, false) }
    case .capability, .noop, .fetchNew, .searchAll, .searchUnseen, .idle:
      guard ok else { return fail(.violation("\(step) refused: \(text)")) }
      if step == .searchUnseen { announceSync() }
      if step == .fetchNew, !queue.contains(.fetchNew) { modSeqBeforeUnfetched = nil }
    }
    advance()
  }
}
