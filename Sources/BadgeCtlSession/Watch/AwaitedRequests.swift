import BadgeProtocol

/// The requests a watcher sent over its connection that await replies, oldest first: replies
/// come in request order, so every reply line belongs to the oldest. At most `limit` await at
/// once, so a server that never answers cannot make the list grow.
struct AwaitedRequests {
  let limit: Int
  /// Sent, oldest first; the first `answered` of them have had their status line.
  private var requests: [Request] = []
  private var answered = 0

  init(limit: Int) {
    self.limit = limit
  }

  /// How many requests await replies.
  var count: Int { requests.count - answered }

  /// The request the next reply line belongs to; `nil` when none awaits one.
  var oldest: Request? { answered < requests.count ? requests[answered] : nil }

  /// Whether `more` requests may be sent now.
  func hasRoom(for more: Int) -> Bool { count + more <= limit }

  /// `sent` went out, in order.
  mutating func sent(_ sent: [Request]) {
    requests += sent
  }

  /// The oldest request's reply ended. Answered requests are let go once they are half of the
  /// list, so each costs a constant share of the moves however many await.
  mutating func answerOldest() {
    guard answered < requests.count else { return }
    answered += 1
    if answered * 2 >= requests.count {
      requests.removeFirst(answered)
      answered = 0
    }
  }

  /// The connection ended: no reply will come.
  mutating func removeAll() {
    requests = []
    answered = 0
  }
}
