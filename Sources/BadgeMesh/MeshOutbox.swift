import BadgeCore
import BadgeLog
import BadgeProtocol

/// What the bridge's parts ask for while one input is handled, in the order they ask it: the
/// actions for the runtime (log lines among them: no part writes to a logger), each request to
/// the daemon with what its reply will answer. Every part writes here, so the actions of one
/// input come out in one order whichever parts made them.
struct MeshOutbox {
  private var actions: [MeshAction] = []
  /// Something the status line counts (the writes waiting) changed: it is reported within a
  /// second.
  var statusChanged = false

  /// Sends `request` (with `id`, when it takes one) to the daemon; its reply answers
  /// `awaiting`, or is logged with the request when it is a refusal.
  mutating func send(_ request: Request, id: String? = nil, _ awaiting: DaemonSession.Awaiting = .other) {
    actions.append(.request(DaemonRequest(request, id: id, awaiting)))
  }

  mutating func publish(_ message: MeshMessage) { actions.append(.publish(message)) }

  mutating func append(_ action: MeshAction) { actions.append(action) }

  mutating func log(_ level: Logger.Level, _ text: String, _ fields: [Logger.Field] = []) {
    actions.append(.log(level, text, fields))
  }

  /// The actions asked for since the last call, in order.
  mutating func takeActions() -> [MeshAction] {
    defer { actions.removeAll(keepingCapacity: true) }
    return actions
  }
}

/// How the two connections stand, as each part is told with every input (no part keeps it).
struct MeshLinks {
  /// The daemon accepted the bridge and its snapshot is in.
  var daemonReady: Bool
  /// The broker's connection is up (its retained messages may still be coming).
  var brokerUp: Bool
  /// Every retained message of the subscriptions has come: claims are known.
  var synced: Bool
}
