/// Why a connection (to the broker or to the daemon) failed or ended, in words a user acts on.
public enum LinkFailure: Equatable, Sendable {
  /// Nothing answered, or the network said no (`Connection refused`, `Network is unreachable`,
  /// a name that does not resolve).
  case unreachable(String)
  /// The broker refused the user name or password, or the account may not connect.
  case credentials(String)
  /// The broker's certificate did not check out (an unknown CA, another host name, expired),
  /// or TLS failed: never retried without TLS.
  case certificate(String)
  /// The broker refused the connection for another reason (its CONNACK reason).
  case refused(String)
  /// An established connection ended (keepalive expired, reset, the broker shut down).
  case lost(String)
  /// Another client connected with this bridge's client id and took its session over.
  case takenOver

  /// Whether another attempt may succeed without anyone changing a file: false for refused
  /// credentials and a bad certificate, which are still retried (someone may fix the broker's
  /// side) but are reported as errors.
  public var isConfiguration: Bool {
    switch self {
    case .credentials, .certificate: return true
    default: return false
    }
  }
}

/// One connection's health, and the one log line each change of it gives: a connection that
/// fails the same way on every attempt is reported once, not once per attempt; a different
/// failure, success after failures, and the loss of an established connection are each one
/// line.
public struct LinkHealth: Sendable {
  /// What the lines call the far end: `the broker mqtts://host:8883`, `badged at <socket>`.
  public let peer: String
  public private(set) var state: State = .starting
  /// Failed attempts since the last success.
  public private(set) var failures = 0

  public enum State: Equatable, Sendable {
    case starting
    case connected
    case failing(LinkFailure)
  }

  public init(peer: String) { self.peer = peer }

  /// A line to log: its level and text.
  public struct Line: Equatable, Sendable {
    public var level: Logger.Level
    public var text: String

    public init(level: Logger.Level, text: String) {
      self.level = level
      self.text = text
    }
  }

  /// The last failure's words, for the bridge's status; `nil` while connected.
  public var lastError: String? {
    guard case .failing(let failure) = state else { return nil }
    return LinkHealth.words(failure)
  }

  /// The connection is up.
  public mutating func connected() -> Line? {
    defer {
      state = .connected
      failures = 0
    }
    switch state {
    case .connected: return nil
    case .starting: return Line(level: .notice, text: "Connected to \(peer).")
    case .failing:
      let attempts = failures == 1 ? "1 failed attempt" : "\(failures) failed attempts"
      return Line(level: .notice, text: "Connected to \(peer) after \(attempts).")
    }
  }

  /// An attempt failed, or an established connection ended.
  public mutating func failed(_ failure: LinkFailure) -> Line? {
    let previous = state
    state = .failing(failure)
    failures += 1
    if previous == .failing(failure) { return nil }
    let words = LinkHealth.words(failure)
    switch failure {
    case .credentials:
      return Line(
        level: .error,
        text: "Failed to log in to \(peer): \(words); check username and password_file. Retrying quietly.")
    case .certificate:
      return Line(
        level: .error,
        text:
          "Failed to set up TLS with \(peer): \(words); check ca_file and the broker's certificate. Never falling back to plain MQTT; retrying quietly."
      )
    case .takenOver:
      return Line(
        level: .warning,
        text:
          "Another client connected to \(peer) with this bridge's client id (a second bridge for this host?); reconnecting."
      )
    case .lost:
      return Line(level: .warning, text: "Lost the connection to \(peer): \(words); reconnecting.")
    case .unreachable, .refused:
      return Line(
        level: .warning,
        text: "Failed to connect to \(peer): \(words); retrying\(previous == .connected ? "" : " quietly").")
    }
  }

  static func words(_ failure: LinkFailure) -> String {
    switch failure {
    case .unreachable(let text), .credentials(let text), .certificate(let text), .refused(let text), .lost(let text):
      return text
    case .takenOver: return "session taken over"
    }
  }
}
