import BadgeCore
import BadgeLog
import BadgePOSIX
import BadgeSystem
import BadgeWeb
import Glibc

/// badged-web's world: the feed from badged (`WebFeed`), the HTTP server on every listen
/// address (`HTTPServer`), the open event streams, and the keep-alive timer that keeps idle
/// streams open through proxies and ends those of revoked tokens.
final class WebRuntime {
  let config: WebConfig
  let feed: WebFeed
  var tokens: TokenStore
  let files: StaticFiles
  let logger: Logger
  private let loop: EventLoop
  private(set) var server: HTTPServer!
  /// The open event streams, for the keep-alive.
  private var streams: [ObjectIdentifier: WebEventStream] = [:]
  private var keepAliveTimer: TimerSource?
  /// The replay connections of resuming streams (`StreamReplay`), let go once finished.
  private var replays: [StreamReplay] = []

  /// Binds every listen address (a bind that fails throws, naming the address) and reads the
  /// TLS files.
  init(loop: EventLoop, config: WebConfig, socketPath: String, logger: Logger) throws(SystemError) {
    self.loop = loop
    self.config = config
    self.logger = logger
    feed = WebFeed(socket: socketPath, loop: loop, logger: logger)
    tokens = TokenStore(path: config.tokensFile ?? XDGPaths.defaultWebTokensFile)
    files = StaticFiles(root: config.root ?? WebRuntime.defaultRoot)
    // The certificate and key, read once for every TCP address.
    var tls: (certificate: String, key: String)?
    if let certFile = config.certFile, let keyFile = config.keyFile {
      tls = (try WebRuntime.readText(certFile), try WebRuntime.readText(keyFile))
    }
    var listeners: [HTTPServer.Listener] = []
    for address in config.listen {
      listeners.append(try WebRuntime.listener(address, tls: tls))
    }
    var limits = HTTPServer.Limits()
    limits.connections = UInt32(config.maxClients)
    // A stream is quiet for a keep-alive's period at most: never timed out for that.
    limits.timeoutSeconds = UInt32(max(60, config.keepalive + 30))
    server = try HTTPServer(loop: loop, listeners: listeners, limits: limits, logger: logger) {
      [unowned self] request, responder in
      handle(request, responder)
    }
    feed.news = { [unowned self] in server.wakeStreams() }
  }

  /// The addresses served, as the log says them.
  var addresses: [String] { server.daemons.map(\.name) }

  func start() throws(SystemError) {
    server.start()
    try feed.start()
    let period = UInt64(config.keepalive) * 1_000_000
    let timer = try loop.addTimer(at: loop.now + period, accuracy: 100_000) { [unowned self] in
      keepAlive()
    }
    keepAliveTimer = timer
  }

  /// Ends every stream and request, stops the server and closes badged's connection.
  func stop() {
    keepAliveTimer?.cancel()
    server.stop()
    feed.stop()
  }

  /// Every stream gets a keep-alive comment (and its token is checked again).
  private func keepAlive() {
    for stream in streams.values { stream.keepAlive() }
    server.wakeStreams()
    keepAliveTimer?.schedule(at: loop.now + UInt64(config.keepalive) * 1_000_000)
  }

  // MARK: - Streams

  /// Opens the event stream `events` asks for: from a snapshot; or resuming after its last
  /// event's id, from the ring when it still holds what came after it, else from badged's replay
  /// of the changes missed (`StreamReplay`), else with `reset` and a snapshot.
  func openStream(
    _ events: EventsRequest, tokenID: String, responder: Responder, headers: [(name: String, value: String)]
  ) {
    let patterns = events.patterns.compactMap { ChannelPattern($0) }
    let retry = ServerSentEvent.retry(milliseconds: 1000)
    guard let id = events.lastEventID else {
      return startStream(
        patterns, start: retry + feed.state.snapshotEvent(patterns: patterns), cursor: feed.ring.end,
        tokenID: tokenID, responder: responder, headers: headers)
    }
    switch feed.ring.position(resumingAfter: id) {
    case .at(let cursor):
      startStream(patterns, start: retry, cursor: cursor, tokenID: tokenID, responder: responder, headers: headers)
    case .reset:
      startStream(
        patterns, start: retry + feed.state.resetEvents(reason: "gap", patterns: patterns), cursor: feed.ring.end,
        tokenID: tokenID, responder: responder, headers: headers)
    case .needsReplay:
      replays.removeAll { $0.isFinished }
      let replay = StreamReplay(socket: feed.daemon.socket, loop: loop, logger: logger, since: id, patterns: patterns) {
        [unowned self] changes in
        let (start, cursor, sentThrough) = resumed(after: id, replayed: changes, patterns: patterns)
        startStream(
          patterns, start: retry + start, cursor: cursor, sentThrough: sentThrough, tokenID: tokenID,
          responder: responder, headers: headers)
      }
      replays.append(replay)
      replay.start()
    }
  }

  /// Where a stream goes on after badged's replay of the changes after `id`: the replayed
  /// changes as change events, then the ring after the later of the last one and the ring's
  /// base (the replay covers every change of the stream's channels up to badged's latest, the
  /// ring every change after its base). A replay ahead of the feed goes on at the ring's end,
  /// skipping the changes it sent when the feed takes them. Without a replay: `reset` and a
  /// snapshot.
  private func resumed(
    after id: UInt64, replayed: [ChannelSnapshot]?, patterns: [ChannelPattern]
  ) -> (start: [UInt8], cursor: UInt64, sentThrough: UInt64?) {
    guard let replayed else {
      return (feed.state.resetEvents(reason: "gap", patterns: patterns), feed.ring.end, nil)
    }
    var start: [UInt8] = []
    for snapshot in replayed { start += WebState.changeEvent(snapshot) }
    let last = max(replayed.last?.seq ?? id, feed.ring.base)
    guard case .at(var cursor) = feed.ring.position(resumingAfter: last) else {
      return (start, feed.ring.end, last)
    }
    // The epoch's first entry is its `reset` and snapshot, for the streams reading along when
    // it began: the replay brought this one to the same state already.
    if cursor == feed.ring.epochStart, cursor < feed.ring.end { cursor += 1 }
    return (start, cursor, nil)
  }

  private func startStream(
    _ patterns: [ChannelPattern], start: [UInt8], cursor: UInt64, sentThrough: UInt64? = nil, tokenID: String,
    responder: Responder,
    headers: [(name: String, value: String)]
  ) {
    let stream = WebEventStream(
      feed: feed, patterns: patterns, start: start, cursor: cursor, sentThrough: sentThrough,
      stillAllowed: { [unowned self] in tokens.isValid(id: tokenID) },
      ended: { [weak self] stream in self?.streams[ObjectIdentifier(stream)] = nil })
    streams[ObjectIdentifier(stream)] = stream
    let taken = responder.stream(
      headers: headers + [("Content-Type", "text/event-stream"), ("X-Accel-Buffering", "no")], source: stream)
    if !taken { streams[ObjectIdentifier(stream)] = nil }
  }

  /// How many event streams are open.
  var streamCount: Int { streams.count }

  // MARK: - Paths and listen addresses

  /// `[web] root`'s default: `share/badged/web` beside the executable's `bin` folder.
  static var defaultRoot: String {
    let executable = Environment.executablePath ?? "/usr/bin/badged-web"
    let bin = FileSystem.folder(of: executable)
    return FileSystem.folder(of: bin) + "/share/badged/web"
  }

  private static func listener(
    _ address: ListenAddress, tls: (certificate: String, key: String)?
  ) throws(SystemError) -> HTTPServer.Listener {
    switch address {
    case .unix(let path):
      return HTTPServer.Listener(socket: try ListenSocket.unix(path: path), tls: nil)
    case .tcp(let host, let port):
      guard let port = UInt16(exactly: port) else {
        throw SystemError("listen on port \(port)", Errno(rawValue: EINVAL))
      }
      return HTTPServer.Listener(socket: try ListenSocket.tcp(host: host, port: port), tls: tls)
    }
  }

  private static func readText(_ path: String) throws(SystemError) -> String {
    guard let bytes = try StateFiles.read(path) else {
      throw SystemError("read '\(path)'", Errno(rawValue: ENOENT))
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
