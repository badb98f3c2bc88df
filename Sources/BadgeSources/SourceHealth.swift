import BadgeLog

/// One source's state, as `badgectl sources` shows it, and the one log line each change of it
/// gives (the pattern of `LinkHealth`, whose `Line` it speaks in): a source that fails the same
/// way on every attempt is reported once, not once per attempt; a recount is a debug line.
public struct SourceHealth: Sendable {
  /// The source's name, which every line starts with.
  public let source: String
  public private(set) var state: State = .starting
  /// Attempts that failed since the source last counted.
  public private(set) var failures = 0

  public init(source: String) { self.source = source }

  public enum State: Equatable, Sendable {
    /// Not counted yet.
    case starting
    /// What it counts does not exist yet (a folder, a database): count 0, not stale.
    case waiting(for: String)
    /// Counting.
    case ok
    /// Listing or querying everything anew.
    case recounting
    /// It cannot count until something changes (a file where a folder should be, a bad
    /// line from a command): the channel is stale.
    case error(String)
    /// It failed and tries again at `at` (wall milliseconds): the channel is stale.
    case retrying(at: Int64, because: String)

    /// The word of `state=` in a status line.
    public var word: String {
      switch self {
      case .starting, .waiting: return "waiting"
      case .ok: return "ok"
      case .recounting: return "recounting"
      case .error: return "error"
      case .retrying: return "retrying"
      }
    }

    /// Whether the source has not counted yet: starting, or waiting for what it counts.
    public var isBeforeCounting: Bool {
      switch self {
      case .starting, .waiting: return true
      default: return false
      }
    }

    /// Whether it failed and tries again.
    public var isRetrying: Bool {
      if case .retrying = self { return true }
      return false
    }

    /// Whether the channel is to be marked stale.
    public var isStale: Bool {
      switch self {
      case .error, .retrying: return true
      default: return false
      }
    }

    /// Why it is in error or retrying.
    public var reason: String? {
      switch self {
      case .error(let reason), .retrying(_, let reason): return reason
      default: return nil
      }
    }
  }

  /// The source is now in `next`: the line to log, if the change is worth one.
  public mutating func enter(_ next: State) -> LinkHealth.Line? {
    let previous = state
    state = next
    switch next {
    case .starting: return nil
    case .recounting:
      return previous == .recounting ? nil : line(.debug, "recounting")
    case .waiting(let what):
      return previous == next ? nil : line(.notice, "waiting for \(what)")
    case .ok:
      defer { failures = 0 }
      switch previous {
      case .ok: return nil
      case .error, .retrying:
        let attempts = failures == 1 ? "1 failed attempt" : "\(failures) failed attempts"
        return line(.notice, "counting again after \(attempts)")
      case .starting, .waiting: return line(.info, "counting")
      case .recounting: return line(.debug, "recounted")
      }
    case .error(let reason):
      failures += 1
      return previous == next ? nil : line(.error, "error: \(reason)")
    case .retrying(_, let reason):
      // A new attempt's failure has a new time; the same state told again (a source whose
      // connection reported more while still waiting to retry) is no further attempt.
      if previous != next { failures += 1 }
      if previous.isRetrying && previous.reason == reason { return nil }
      return line(.warning, "\(reason); retrying")
    }
  }

  /// The program's status for the service manager (`STATUS=`), from every source's state:
  /// `Running 3 sources: 2 ok, 1 error`, the states in a fixed order, those no source is in
  /// left out, so that `systemctl status` tells at a glance whether anything is wrong.
  public static func summary(_ states: [State]) -> String {
    let words = ["ok", "waiting", "recounting", "error", "retrying"]
    let tally = words.compactMap { word -> String? in
      let count = states.filter { $0.word == word }.count
      return count == 0 ? nil : "\(count) \(word)"
    }
    let running = "Running \(states.count) source\(states.count == 1 ? "" : "s")"
    return tally.isEmpty ? running : running + ": " + tally.joined(separator: ", ")
  }

  private func line(_ level: Logger.Level, _ words: String) -> LinkHealth.Line {
    LinkHealth.Line(level: level, text: "Source \(source): \(words).")
  }
}
