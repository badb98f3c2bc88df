import BadgeIMAP

/// libFuzzer target: bytes from an IMAP server. The first byte picks how the rest is cut into
/// reads and which session hears them; the rest goes to a bounded `ImapResponseParser` (small
/// bounds, so that inputs reach them) and to an `ImapSession` already in IDLE after a scripted
/// login (with QRESYNC, or with the sequence map of a server without it), then the caller's
/// calls (mark read, check, close).
///
/// Checked beyond "never crashes": the parser never holds more than its `maxLine`; once a
/// session has failed it says nothing more; every command it sends ends its line; each change
/// adds what was not there and removes what was; and the unseen set its outputs told (`synced`,
/// then each `changed`) is the set it keeps for a resume.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIMAP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let choice = Int(bytes[0])
  let rest = Array(bytes.dropFirst())
  let piece = 1 + choice % 17
  checkParser(rest, piece: piece)
  checkSession(rest, piece: piece, qresync: choice & 0x80 != 0)
  return 0
}

private func reads(_ bytes: [UInt8], _ piece: Int, _ body: (UnsafeRawBufferPointer) -> Void) {
  var index = 0
  while index < bytes.count {
    let end = min(index + piece, bytes.count)
    bytes[index..<end].withUnsafeBytes(body)
    index = end
  }
}

private func checkParser(_ bytes: [UInt8], piece: Int) {
  var parser = ImapResponseParser(maxLine: 256, maxLiteral: 64)
  reads(bytes, piece) { read in
    _ = parser.feed(read)
    precondition(parser.pendingBytes <= parser.maxLine, "the parser holds more than maxLine")
  }
}

/// What a session's outputs have told its caller.
private struct Told {
  var failed = false
  var unseen: Set<UInt32>?

  mutating func take(_ outputs: [ImapOutput]) {
    for output in outputs {
      precondition(!failed, "an output after .failed: \(output)")
      switch output {
      case .failed: failed = true
      case .send(let bytes): precondition(bytes.suffix(2) == [0x0D, 0x0A], "a command without its line end")
      case .synced(_, let uids): unseen = Set(uids)
      case .changed(let added, let removed):
        precondition(unseen != nil, "a change before the set")
        precondition(added.allSatisfy { unseen?.contains($0) == false }, "added twice")
        precondition(removed.allSatisfy { unseen?.contains($0) == true }, "removed what was not there")
        unseen?.formUnion(added)
        unseen?.subtract(removed)
      default: break
      }
    }
  }
}

private func feed(_ session: inout ImapSession, _ text: String, _ told: inout Told) {
  Array(text.utf8).withUnsafeBytes { session.received($0) }
  told.take(session.takeOutput())
}

private func checkSession(_ bytes: [UInt8], piece: Int, qresync: Bool) {
  var session = ImapSession(username: "alice", auth: .login, startTLS: false, mailbox: "INBOX", resume: nil)
  var told = Told()
  session.connected()
  let capabilities = qresync ? "IMAP4rev1 IDLE ENABLE QRESYNC CONDSTORE ESEARCH LITERAL+" : "IMAP4rev1 IDLE"
  feed(&session, "* OK [CAPABILITY \(capabilities)] ready\r\n", &told)
  session.credential(Array("secret".utf8))
  told.take(session.takeOutput())
  feed(&session, "a1 OK [CAPABILITY \(capabilities)] Logged in\r\n", &told)
  if qresync {
    feed(&session, "* ENABLED QRESYNC\r\na2 OK Enabled.\r\n", &told)
    feed(&session, "* 3 EXISTS\r\n* OK [UIDVALIDITY 7] v\r\na3 OK Selected.\r\n", &told)
    feed(&session, "* ESEARCH (TAG \"a4\") UID ALL 2:3\r\na4 OK Search completed.\r\n", &told)
  } else {
    feed(&session, "* 3 EXISTS\r\n* OK [UIDVALIDITY 7] v\r\na2 OK Selected.\r\n", &told)
    feed(&session, "* SEARCH 1 2 3\r\na3 OK Search completed.\r\n", &told)
    feed(&session, "* SEARCH 2 3\r\na4 OK Search completed.\r\n", &told)
  }
  feed(&session, "+ idling\r\n", &told)
  precondition(told.unseen == [2, 3] && !told.failed, "the scripted login did not reach IDLE")
  reads(bytes, piece) { read in
    session.received(read)
    told.take(session.takeOutput())
    if !told.failed, let kept = session.mailboxState { precondition(kept.unseen == told.unseen, "the set drifted") }
  }
  session.markRead([1, 2, 3, 4])
  session.check()
  told.take(session.takeOutput())
  session.closed()
  told.take(session.takeOutput())
  precondition(told.failed, "a session that was closed did not end")
}
