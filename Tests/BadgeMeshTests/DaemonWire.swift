import BadgeCore
import BadgeMesh
import BadgeProtocol

/// The bridge's connection to its daemon as the runtime's `DaemonClient` runs it, over lines
/// and without a socket: the core's requests go through the client's session (its first
/// requests and watch on every connection), and each line the test gives comes back decoded,
/// a reply's line with the request it answers.
struct DaemonWire {
  private var session: ClientSession<DaemonRequest>

  init(firstRequests: [DaemonRequest], watch: [ChannelPattern]?) {
    session = ClientSession(
      limit: 1 << 20, firstRequests: firstRequests.map { .init($0.request, id: $0.id, ticket: $0) })
    if let watch { session.watch(watch) }
  }

  /// A connection is up: the lines it writes first.
  mutating func connected() -> [String] {
    session.connected()
    return takeLines()
  }

  mutating func connectionEnded() { _ = session.connectionEnded() }

  /// Sends the requests among `actions` as the runtime does (a `WATCH` of its own adds to
  /// what is watched); the lines written, which are none while no connection is up.
  mutating func send(_ actions: [MeshAction]) -> [String] {
    for case .request(let request) in actions {
      if case .watch(let patterns, _) = request.request {
        _ = session.watchAlso(patterns, ticket: request)
      } else {
        _ = session.send(request.request, id: request.id, ticket: request)
      }
    }
    return takeLines()
  }

  /// A line from the daemon, decoded as the client decodes it.
  mutating func receive(_ line: String) -> ClientSession<DaemonRequest>.Delivery? {
    session.receive(ReplyLine(line))
  }

  private mutating func takeLines() -> [String] {
    String(decoding: session.takeOutput(), as: UTF8.self).split(separator: "\n").map(String.init)
  }
}

extension MeshCore {
  /// A line from the daemon, decoded and handed over as the runtime hands it.
  func daemonLine(_ line: String, through wire: inout DaemonWire, at time: MeshTime) {
    guard let delivery = wire.receive(line) else { return }
    if case .reply(let request, let line) = delivery {
      daemonReplied(request, line, at: time)
    } else {
      daemonReceived(delivery, at: time)
    }
  }
}
