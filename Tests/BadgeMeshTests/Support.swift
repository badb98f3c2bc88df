import BadgeCore
import BadgeLog
import BadgeMesh

/// A log sink that keeps the lines, for checking which lines a change gives.
final class KeptLines: LogSink, @unchecked Sendable {
  private(set) var lines: [(level: Logger.Level, text: String)] = []

  func write(_ level: Logger.Level, _ message: String, _ fields: [Logger.Field], identifier: String) {
    lines.append((level, message))
  }

  /// The lines at `level` or more severe.
  func texts(atLeast level: Logger.Level) -> [String] { lines.filter { $0.level <= level }.map(\.text) }

  func removeAll() { lines.removeAll() }
}

func name(_ text: String) -> ChannelName { ChannelName(text)! }

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// The config most tests start from: desktop, sharing mail and ci*, mirroring everything.
func meshConfig(
  host: String = "desktop", share: String = "mail ci*", mirror: String = "*", dnd: MeshConfig.DNDSharing = .local,
  homeAssistant: Bool = false
) -> MeshConfig {
  var config = MeshConfig(
    broker: BrokerAddress(tls: true, host: "broker.lan", port: 8883), host: host, prefix: "badged/ana")
  config.share = share.split(separator: " ").map { ChannelPattern($0)! }
  config.mirror = mirror.split(separator: " ").map { ChannelPattern($0)! }
  config.dnd = dnd
  config.homeAssistant = homeAssistant
  return config
}

extension ChannelState {
  /// A state from its figures one by one.
  init(
    count: Int, label: String, dot: Bool = false, muted: Bool = false, unseen: Int, total: Int64?, seq: UInt64,
    owner: String, pulseMs: Int = 0, claimed: Int64
  ) {
    self.init(
      ChannelFigures(
        count: count, label: label, dot: dot, muted: muted, unseen: unseen, total: total, seq: seq, pulseMs: pulseMs),
      owner: owner, claimed: claimed)
  }
}

extension DaemonLink.LocalState {
  /// A daemon's state from its figures one by one.
  init(
    name: ChannelName, count: Int, label: String, dot: Bool = false, muted: Bool = false, unseen: Int, total: Int64?,
    seq: UInt64, pulseMs: Int = 0, owner: String? = nil
  ) {
    self.init(
      name: name,
      figures: ChannelFigures(
        count: count, label: label, dot: dot, muted: muted, unseen: unseen, total: total, seq: seq, pulseMs: pulseMs),
      owner: owner)
  }
}
