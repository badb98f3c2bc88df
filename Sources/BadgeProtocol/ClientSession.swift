import BadgeCore

/// The client's side of one connection to badged, as values: no socket, no clock (hiredis's
/// reply parser, apart from its async context). A program's connection (`BadgeClient`) feeds it
/// the lines it reads and writes the bytes it asks for; the session keeps the order.
///
/// Requests are `Request` values, written once by `RequestEncoder` into `output` in the order
/// they are sent, each with a `Ticket`: whom its reply goes to (a completion, a request to show
/// the reply beside). Every line read is decoded once (`ReplyLine`) and handed on as a
/// `Delivery`: a line of a reply to the oldest request awaiting one (replies come in request
/// order; at most `limit` await, so a server that never answers cannot make the list grow), or
/// a pushed line (`EVENT`, `EVENT *`, `FORWARD`) for the watch stream (`WatchStream`, which
/// checks each channel's sequence numbers and heals a gap with a new snapshot).
///
/// What the program asks to keep is asked again on every connection (`connected`): its first
/// requests (the bridge's `BRIDGE host=`), then `WATCH` with its patterns. When a connection
/// ends, the requests in flight are handed back (`connectionEnded`) to be told no reply comes.
public struct ClientSession<Ticket> {
  /// What a line read means to the program.
  public enum Delivery {
    /// A line of the reply to the request sent with this ticket; a status line (`isStatus`)
    /// ends the reply.
    case reply(Ticket, ReplyLine)
    /// A channel's state from the watch stream's snapshot (a `STATE` line of `WATCH`'s reply).
    case channel(ChannelSnapshot)
    /// A channel's state pushed (`EVENT`), which follows what the stream holds for it.
    case event(ChannelSnapshot)
    /// Do-not-disturb's state: the snapshot's `*` line or a pushed `EVENT *`.
    case dnd(DNDSnapshot)
    /// The reply to the stream's `WATCH` ended: every channel it lists has been handed on. What
    /// it was: a snapshot (`OK watching`), the changes after `since=` replayed
    /// (`OK watching since=<seq>`), or a snapshot because they could not be (`OK watching reset`).
    case watching(WatchOutcome)
    /// The daemon refused `WATCH` (or the connection: `ERR busy`, `ERR denied` answer the first
    /// request); nothing is watched.
    case watchRefused(code: String, message: String)
    /// An event below what the stream holds for its channel: the session has asked for a new
    /// snapshot (a `WATCH` without `since=`), which follows as `.channel` lines and `.watching`.
    case gap(channel: String, seq: UInt64, held: UInt64)
    /// A write to a mirrored channel for its owner (the bridge's connection only).
    case forward(id: String, channel: ChannelName, write: ChannelWrite)
    /// A `FORWARD` line whose write this version cannot read (a command of a later one): the
    /// text after `FORWARD `. The write stays in the daemon's outbox.
    case unreadableForward(String)
    /// `CLEARED <channel> upto=<total>`: a click cleared a `mark-read` source's channel (the
    /// sources connection only).
    case cleared(channel: ChannelName, upTo: Int)
    /// `RELOADED`: the daemon reloaded its config (the sources connection only).
    case reloaded
  }

  /// What each request in flight was sent for.
  private enum Awaited {
    case request(Ticket)
    /// The watch stream's `WATCH`: its reply is the snapshot.
    case watch
    /// The watch stream's `UNWATCH`, sent to heal a gap.
    case unwatch
  }

  /// A request asked again first on every connection.
  public struct FirstRequest {
    public var request: Request
    public var id: String?
    public var ticket: Ticket

    public init(_ request: Request, id: String? = nil, ticket: Ticket) {
      self.request = request
      self.id = id
      self.ticket = ticket
    }
  }

  /// The bytes to write, in order; the connection takes them with `takeOutput`.
  public private(set) var output: [UInt8] = []
  public private(set) var stream: WatchStream
  public private(set) var isConnected = false
  private var awaiting: AwaitedReplies<Awaited>
  private let firstRequests: [FirstRequest]

  /// - Parameters:
  ///   - limit: how many requests sent with `send` may await replies at once.
  ///   - firstRequests: sent first on every connection, before `WATCH`.
  ///   - watchLimit: how many channels' sequence numbers the watch stream holds.
  public init(limit: Int, firstRequests: [FirstRequest] = [], watchLimit: Int = WatchStream.defaultLimit) {
    awaiting = AwaitedReplies(limit: limit)
    self.firstRequests = firstRequests
    stream = WatchStream(limit: watchLimit)
  }

  /// How many requests await replies (the first requests and the stream's own among them,
  /// which are sent whatever the limit: there are a few of them at most).
  public var awaitingCount: Int { awaiting.count }

  /// Whether `more` requests may be sent with `send` now.
  public func hasRoom(for more: Int) -> Bool { isConnected && awaiting.hasRoom(for: more) }

  /// A connection is up: the first requests, then `WATCH` when one is kept, go out.
  public mutating func connected() {
    isConnected = true
    for first in firstRequests {
      RequestEncoder.append(first.request, id: first.id, to: &output)
      awaiting.sent(.request(first.ticket))
    }
    if let patterns = stream.patterns { requestSnapshot(patterns) }
  }

  /// The connection ended: nothing written and not taken is sent, and no reply will come.
  /// Returns the tickets of the requests that were in flight, oldest first.
  public mutating func connectionEnded() -> [Ticket] {
    isConnected = false
    output = []
    stream.connectionEnded()
    return awaiting.removeAll().compactMap {
      if case .request(let ticket) = $0 { return ticket }
      return nil
    }
  }

  /// Sends `request` (with `id`, when it takes one) for `ticket`. Returns false, sending
  /// nothing, when no connection is up, when `limit` requests await replies already, or for
  /// `WATCH` and `UNWATCH`, which are the stream's (`watch`).
  public mutating func send(_ request: Request, id: String? = nil, ticket: Ticket) -> Bool {
    switch request {
    case .watch, .unwatch: return false
    default: break
    }
    guard hasRoom(for: 1) else { return false }
    RequestEncoder.append(request, id: id, to: &output)
    awaiting.sent(.request(ticket))
    return true
  }

  /// Sends `WATCH` with `patterns` as a request of its own, for `ticket`: the daemon adds them
  /// to what this connection watches and answers with their snapshot, whose lines go to
  /// `ticket` and not to the stream (the bridge looks up a channel its snapshot did not list).
  /// Not asked again on a new connection. Returns false, sending nothing, as `send` does.
  public mutating func watchAlso(_ patterns: [ChannelPattern], ticket: Ticket) -> Bool {
    guard hasRoom(for: 1) else { return false }
    RequestEncoder.append(.watch(patterns), to: &output)
    awaiting.sent(.request(ticket))
    return true
  }

  /// Watches `patterns` (every channel when empty), now when connected and on every new
  /// connection. With `since`, each such `WATCH` asks `since=<seq>` (the changes after it
  /// replayed, when the daemon keeps them all) until `resume(after:)` says otherwise; the end
  /// of the reply (`.watching`) says whether they were.
  public mutating func watch(_ patterns: [ChannelPattern], since: UInt64? = nil) {
    stream.watch(patterns, since: since)
    if isConnected { requestSnapshot(patterns) }
  }

  /// Stops watching: `UNWATCH` now when connected, and no `WATCH` on later connections (a
  /// connection that only wanted a replay, or a snapshot, once). Events the daemon pushed
  /// before its `OK` still come.
  public mutating func unwatch() {
    guard stream.patterns != nil else { return }
    stream.unwatch()
    guard isConnected else { return }
    RequestEncoder.append(.unwatch, to: &output)
    awaiting.sent(.unwatch)
  }

  /// What the next connection's `WATCH` resumes after (`since=<seq>`; `nil`: a snapshot), such
  /// as the last change the program took. Sends nothing now.
  public mutating func resume(after seq: UInt64?) {
    stream.resume(after: seq)
  }

  /// The bytes to write now; `output` is empty afterwards.
  public mutating func takeOutput() -> [UInt8] {
    defer { output = [] }
    return output
  }

  /// A line read (without its LF), decoded once: what it means, or `nil` for a line that
  /// answers nothing and is not pushed (a daemon never sends one) or that the stream drops.
  public mutating func receive(_ line: ReplyLine) -> Delivery? {
    switch line {
    case .event(let snapshot):
      return delivery(stream.event(snapshot), pushed: true)
    case .dnd(let dnd, pushed: true):
      return .dnd(dnd)
    case .forward(let id, let channel, let write):
      return .forward(id: id, channel: channel, write: write)
    case .data(let text) where text.hasPrefix("FORWARD "):
      return .unreadableForward(String(text.dropFirst(8)))
    case .cleared(let channel, let upTo):
      return .cleared(channel: channel, upTo: upTo)
    case .reloaded:
      return .reloaded
    default:
      guard let oldest = awaiting.oldest else { return nil }
      if line.isStatus { awaiting.answerOldest() }
      switch oldest {
      case .request(let ticket):
        return .reply(ticket, line)
      case .watch:
        return snapshotLine(line)
      case .unwatch:
        if line.isStatus { stream.unwatched() }
        return nil
      }
    }
  }

  /// A line of `WATCH`'s reply.
  private mutating func snapshotLine(_ line: ReplyLine) -> Delivery? {
    switch line {
    case .state(let snapshot):
      return delivery(stream.snapshotLine(snapshot), pushed: false)
    case .dnd(let dnd, _):
      return .dnd(dnd)
    case .ok(let text):
      stream.snapshotEnded(ok: true)
      return .watching(WatchOutcome(statusText: text) ?? .snapshot)
    case .error(let code, let message):
      stream.snapshotEnded(ok: false)
      return .watchRefused(code: code, message: message)
    default:
      return nil  // a data line a later version may add
    }
  }

  private mutating func delivery(_ verdict: WatchStream.Verdict, pushed: Bool) -> Delivery? {
    switch verdict {
    case .channel(let snapshot):
      return pushed ? .event(snapshot) : .channel(snapshot)
    case .dropped:
      return nil
    case .gap(let channel, let seq, let held):
      RequestEncoder.append(.unwatch, to: &output)
      awaiting.sent(.unwatch)
      if let patterns = stream.patterns {
        RequestEncoder.append(.watch(patterns), to: &output)
        awaiting.sent(.watch)
      }
      return .gap(channel: channel, seq: seq, held: held)
    }
  }

  private mutating func requestSnapshot(_ patterns: [ChannelPattern]) {
    RequestEncoder.append(.watch(patterns, since: stream.since), to: &output)
    awaiting.sent(.watch)
    stream.snapshotRequested()
  }
}
