/// What a client sent that awaits replies, oldest first: the daemon answers in request order, so
/// every reply line belongs to the oldest. At most `limit` await at once, so a server that never
/// answers cannot make the list grow.
///
/// `Element` is what the client keeps of each request: the request itself (a watcher's), or
/// whom to hand its reply (`ClientSession`'s tickets).
public struct AwaitedReplies<Element> {
  public let limit: Int
  /// Sent, oldest first; the first `answered` of them have had their status line.
  private var elements: [Element] = []
  private var answered = 0

  /// The room kept once everything is answered: a burst's more is let go.
  static var keptCapacity: Int { 1024 }

  public init(limit: Int) {
    precondition(limit > 0)
    self.limit = limit
  }

  /// How many await replies.
  public var count: Int { elements.count - answered }

  /// What the next reply line belongs to; `nil` when nothing awaits one.
  public var oldest: Element? { answered < elements.count ? elements[answered] : nil }

  /// Whether `more` may be sent now.
  public func hasRoom(for more: Int) -> Bool { count + more <= limit }

  /// `sent` went out, in order.
  public mutating func sent(_ sent: [Element]) {
    elements += sent
  }

  /// One more went out.
  public mutating func sent(_ element: Element) {
    elements.append(element)
  }

  /// The oldest one's reply ended: it is let go and returned. Answered elements are removed
  /// from the list once they are half of it, so each costs a constant share of the moves
  /// however many await.
  @discardableResult
  public mutating func answerOldest() -> Element? {
    guard answered < elements.count else { return nil }
    let element = elements[answered]
    answered += 1
    if answered == elements.count {
      // All answered: a burst's room goes (the memory a flood of requests took is given back).
      elements.removeAll(keepingCapacity: elements.capacity <= AwaitedReplies.keptCapacity)
      answered = 0
    } else if answered * 2 >= elements.count {
      elements.removeFirst(answered)
      answered = 0
    }
    return element
  }

  /// The connection ended: no reply will come. Returns what awaited, oldest first, so that
  /// each can be told so.
  @discardableResult
  public mutating func removeAll() -> [Element] {
    defer {
      elements = []
      answered = 0
    }
    return Array(elements[answered...])
  }
}
