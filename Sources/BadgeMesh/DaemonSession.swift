import BadgeCore

/// The bridge's session with its daemon: how far the greeting got, what each reply still to
/// come answers, and the latest state of each shared channel of this machine as the daemon
/// reported it. Lines come in; what they mean for the rest of the bridge comes out as an
/// `Event`, and requests go out through the outbox, so the session can sit on any line
/// transport.
struct DaemonSession {
  enum Phase { case down, greeting, ready }

  /// What a daemon reply answers.
  enum Awaiting {
    case hello
    case forwards
    case watch
    case watchOne
    case mirror(ChannelName)
    case apply(ChannelName, ChannelCommand, ReplyRoute?)
    /// Any other request: its line, which a refusal is logged with.
    case other(String)
  }

  /// What a line means for the other parts of the bridge.
  enum Event: Equatable {
    /// A write to a mirrored channel, for its owner.
    case forward(ForwardedWrite)
    /// A shared channel of this machine changed (already kept in `localStates`).
    case localChanged(DaemonLink.LocalState)
    /// Do-not-disturb changed here.
    case localDND(DaemonLink.LocalDND)
    /// Do-not-disturb as it stood when the bridge started watching.
    case dndSnapshot(DaemonLink.LocalDND)
    /// The daemon accepted the bridge and its snapshot is in.
    case ready
    /// The reply to a `MIRROR`: `refusal` when the daemon did not show the channel.
    case mirrorAnswered(ChannelName, refusal: String?)
    /// The reply to another machine's write carried out here.
    case applyAnswered(ChannelName, ChannelCommand, ReplyRoute?, refusal: String?)
  }

  private let config: MeshConfig
  private var phase = Phase.down
  /// What each reply still to come answers, in request order.
  private var awaiting = FIFO<Awaiting>()
  /// The latest state of every shared channel of this machine, as its daemon reports it.
  private(set) var localStates: [ChannelName: DaemonLink.LocalState] = [:]

  init(config: MeshConfig) { self.config = config }

  /// Whether the daemon accepted this bridge and its snapshot is in.
  var isReady: Bool { phase == .ready }

  /// The connection is up: say who we are, take the forward outbox, watch the shared channels
  /// (and do-not-disturb, which every watcher is pushed).
  mutating func connected(into outbox: inout MeshOutbox) {
    phase = .greeting
    awaiting.removeAll()
    outbox.send(DaemonLink.hello(host: config.host), .hello)
    outbox.send(DaemonLink.takeForwards, .forwards)
    if !config.share.isEmpty {
      outbox.send(DaemonLink.watch(config.share), .watch)
    } else if config.dnd == .shared {
      outbox.send(DaemonLink.watch([]), .watch)
    }
  }

  /// The connection ended; whether it had been up.
  mutating func closed() -> Bool {
    let wasUp = phase != .down
    phase = .down
    awaiting.removeAll()
    localStates.removeAll()
    return wasUp
  }

  /// The requests just sent, whose replies come in this order.
  mutating func expect(_ replies: [Awaiting]) {
    for reply in replies { awaiting.push(reply) }
  }

  /// One line from the daemon.
  mutating func receive(_ line: String, into outbox: inout MeshOutbox) -> Event? {
    let parsed = DaemonLink.parse(line)
    switch parsed {
    case .forward(let id, let channel, let command):
      return .forward(ForwardedWrite(id: id, channel: channel, command: command))
    case .unreadableForward(let text):
      outbox.log(
        .warning,
        "Cannot deliver the forwarded write '\(text)': this badged-mqtt does not know it; it stays in badged's outbox.")
      return nil
    case .state(let state, pushed: true):
      return localChanged(state)
    case .dnd(let state, pushed: true):
      return .localDND(state)
    case .ok, .error:
      guard let request = awaiting.pop() else {
        outbox.log(.debug, "Dropped a reply from badged that answers nothing: \(line)")
        return nil
      }
      return answered(request, parsed, into: &outbox)
    case .state(let state, pushed: false):
      if case .watch = awaiting.first, state.owner == nil, config.shares(state.name) {
        localStates[state.name] = state
      } else if case .watchOne = awaiting.first {
        return localChanged(state)
      }
      return nil
    case .dnd(let state, pushed: false):
      if case .watch = awaiting.first { return .dndSnapshot(state) }
      return nil
    case .other:
      return nil
    }
  }

  /// A shared channel of this machine changed. Mirrors are other machines' channels; a channel
  /// `share` does not name is not published.
  private mutating func localChanged(_ state: DaemonLink.LocalState) -> Event? {
    guard state.owner == nil, config.shares(state.name) else { return nil }
    localStates[state.name] = state
    return .localChanged(state)
  }

  /// A reply's status line, for the request it answers.
  private mutating func answered(_ request: Awaiting, _ line: DaemonLink.Line, into outbox: inout MeshOutbox)
    -> Event?
  {
    let refusal: String?
    if case .error(let code, let message) = line { refusal = "\(code) \(message)" } else { refusal = nil }
    switch request {
    case .hello:
      if let refusal {
        phase = .down
        outbox.append(.closeDaemon(reason: "badged refused the bridge: \(refusal)"))
      }
      return nil
    case .forwards:
      if let refusal { outbox.log(.warning, "badged did not hand over its forward outbox: \(refusal)") }
      guard config.share.isEmpty && config.dnd != .shared else { return nil }
      phase = .ready
      return .ready
    case .watch:
      if let refusal { outbox.log(.warning, "badged refused to watch the shared channels: \(refusal)") }
      phase = .ready
      return .ready
    case .watchOne:
      return nil
    case .mirror(let channel):
      return .mirrorAnswered(channel, refusal: refusal)
    case .apply(let channel, let command, let route):
      return .applyAnswered(channel, command, route, refusal: refusal)
    case .other(let what):
      if let refusal { outbox.log(.warning, "badged refused \(what): \(refusal)") }
      return nil
    }
  }
}
