/// The selected mailbox: SELECT (resuming with QRESYNC where it can), the first count, and the
/// unseen set kept exact from the server's untagged data; the queue of work between IDLEs.
extension ImapSession {
  var qresync: Bool { enabled.contains("QRESYNC") }

  mutating func selectMailbox(_ mailbox: String) {
    phase = .selecting
    var parameters: (uidValidity: UInt32, modSeq: UInt64)?
    if qresync, let resume, let modSeq = resume.highestModSeq {
      parameters = (resume.uidValidity, modSeq)
      // Kept while the server's UIDVALIDITY is the same; VANISHED (EARLIER) and FETCH apply to it.
      unseen = resume.unseen
    }
    send(.select(mailbox: mailbox, qresync: parameters), .select)
  }

  /// SELECT done: a resumed set is whole now; otherwise it is searched for.
  mutating func selected() {
    phase = .selected
    if unseen != nil { announceSync() }
  }

  /// The first count's searches, then the queue, then IDLE.
  mutating func nextWork() {
    guard pending == nil else { return }
    let extended = capabilities.contains("ESEARCH")
    guard unseen != nil else {
      if !qresync, sequence == nil { return send(.uidSearch(criteria: "ALL", extended: extended), .searchAll) }
      return send(.uidSearch(criteria: "UNSEEN UNDELETED", extended: extended), .searchUnseen)
    }
    while !queue.isEmpty {
      switch queue.removeFirst() {
      case .noop: return send(.noop, .noop)
      case .fetchNew:
        guard let sequence else { return send(.uidFetchFrom(uidNext), .fetchNew) }
        guard let first = sequence.firstIndex(of: 0) else {
          modSeqBeforeUnfetched = nil
          continue
        }
        return send(.fetchFrom(UInt32(first + 1)), .fetchNew)
      case .store(let uids):
        let wanted = uids.filter { unseen?.contains($0) == true }
        guard !wanted.isEmpty else {
          outputs.append(.marked([]))
          continue
        }
        return send(.markSeen(wanted), .store(wanted))
      }
    }
    if idles { send(.idle, .idle(entered: false, ending: false)) }
  }

  mutating func enqueue(_ work: Work) {
    if work == .fetchNew, queue.contains(.fetchNew) { return }
    queue.append(work)
    if pending?.step == .idle(entered: true, ending: false) {
      leaveIdle()
    } else if pending == nil {
      advance()
    }
  }

  mutating func leaveIdle() {
    pending?.step = .idle(entered: true, ending: true)
    outputs.append(.send(ImapCommandEncoder.done))
  }

  /// EXISTS, EXPUNGE, VANISHED, FETCH and search results while a mailbox is selected.
  mutating func mailboxData(_ response: ImapResponse) {
    switch response {
    case .exists(let count):
      if let known = sequence?.count, Int(count) > known {
        sequence?.append(contentsOf: repeatElement(0, count: Int(count) - known))
      }
      guard phase == .selected else { return }
      if modSeqBeforeUnfetched == nil { modSeqBeforeUnfetched = .some(highestModSeq) }
      enqueue(.fetchNew)
    case .expunge(let number):
      guard sequence != nil else { return }
      guard Int(number) <= sequence?.count ?? 0 else { return fail(.violation("EXPUNGE of message \(number)")) }
      if let uid = sequence?.remove(at: Int(number) - 1), uid != 0 { setUnseen(uid, false) }
    case .vanished(_, let uids):
      for uid in uids { setUnseen(uid, false) }
      if sequence != nil {
        let gone = Set(uids)
        sequence?.removeAll { gone.contains($0) }
      }
    case .fetch(let number, let fetch):
      fetched(Int(number) - 1, fetch)
    case .search(let uids, _): searched(uids)
    case .esearch(let result):
      if result.tag == nil || result.tag == pending?.tag { searched(result.all ?? []) }
    default: break
    }
  }

  private mutating func fetched(_ index: Int, _ fetch: ImapFetch) {
    var uid = fetch.uid
    if let count = sequence?.count, index < count {
      if let given = uid { sequence?[index] = given } else if let known = sequence?[index], known != 0 { uid = known }
    }
    if let modSeq = fetch.modSeq { highestModSeq = max(highestModSeq ?? 0, modSeq) }
    guard let uid else { return }
    if uid >= uidNext { uidNext = uid &+ 1 }
    if let unseen = fetch.isUnseen { setUnseen(uid, unseen) }
  }

  private mutating func searched(_ uids: [UInt32]) {
    switch pending?.step {
    case .searchAll?:
      sequence = uids.sorted()
      if let last = sequence?.last, last >= uidNext { uidNext = last &+ 1 }
    case .searchUnseen?: unseen = Set(uids)
    default: break
    }
  }

  /// Adds or removes a UID from the set, and notes the change once the set was announced.
  mutating func setUnseen(_ uid: UInt32, _ isUnseen: Bool) {
    guard unseen != nil else { return }
    if isUnseen {
      guard unseen?.insert(uid).inserted == true, synced else { return }
      if removed.remove(uid) == nil { added.insert(uid) }
    } else {
      guard unseen?.remove(uid) != nil, synced else { return }
      if added.remove(uid) == nil { removed.insert(uid) }
    }
  }

  mutating func announceSync() {
    synced = true
    added = []
    removed = []
    outputs.append(.synced(uidValidity: uidValidity ?? 0, unseen: (unseen ?? []).sorted()))
  }

  mutating func flushChanges() {
    guard !added.isEmpty || !removed.isEmpty else { return }
    outputs.append(.changed(added: added.sorted(), removed: removed.sorted()))
    added = []
    removed = []
  }
}
