import BadgeCore

/// What a source of `badged-sources` reports of itself (`SOURCE <name> status …`), and what the
/// daemon lists of it to any client (`SOURCE <name> kind=… state=… …` in the reply to
/// `SOURCES`). The figures are the program's; the daemon keeps the last report of each source
/// and shows it as it is.
public struct SourceStatus: Equatable, Sendable {
  /// A source's state: `error` and `retrying` make its channels stale.
  public enum State: String, Sendable, CaseIterable {
    case waiting, ok, recounting, error, retrying
  }

  /// The source's name (`[source.<name>]`).
  public var name: String
  /// Its kind (`maildir`, `notmuch`, `exec`, `files`, `imap`), 1-64 characters of a channel name's.
  public var kind: String
  public var state: State
  /// How many channels it counts.
  public var channels: Int
  /// The sum of its channels' counts.
  public var count: Int
  /// The wall time of its last count change, in milliseconds (`changed=`); `nil` before one.
  public var changed: Int?
  /// While retrying: when it tries again, in wall milliseconds (`retry_at=`).
  public var retryAt: Int?
  /// Why it is in error or retrying (`error=`, the rest of the line); empty for none.
  public var error: String

  public init(
    name: String, kind: String, state: State, channels: Int = 0, count: Int = 0, changed: Int? = nil,
    retryAt: Int? = nil, error: String = ""
  ) {
    self.name = name
    self.kind = kind
    self.state = state
    self.channels = channels
    self.count = count
    self.changed = changed
    self.retryAt = retryAt
    self.error = error
  }

  /// Whether the source's channels are stale while it is in this state.
  public var makesStale: Bool { state == .error || state == .retrying }

  /// `kind=… state=… channels=… count=…[ changed=…][ retry_at=…][ error=…]`: the words after
  /// the name, in the one order both the request and the listing write them.
  public var fields: String {
    var line = "kind=\(kind) state=\(state.rawValue) channels=\(channels) count=\(count)"
    if let changed { line += " changed=\(changed)" }
    if let retryAt { line += " retry_at=\(retryAt)" }
    if !error.isEmpty { line += " error=\(error)" }
    return line
  }

  /// The listing line of the source, `SOURCE <name> kind=…`, as the reply to `SOURCES` has it.
  public var listing: String { "SOURCE \(name) \(fields)" }

  /// Reads a listing line (`SOURCE <name> kind=… …`); `nil` for any other line, or one whose
  /// fields break the rules.
  public init?(listing line: String) {
    let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    guard words.count == 3, words[0] == "SOURCE",
      case .success(let parsed)? = RequestParser.parse("SOURCE \(words[1]) status \(words[2])"),
      case .source(_, .status(let status)) = parsed.request
    else { return nil }
    self = status
  }
}

/// The first line of the reply to `SOURCES`: `SOURCES attached=<0|1> sources=<n>[
/// config_error=<text>]`, read by `badgectl sources`.
public struct SourcesOverview: Equatable, Sendable {
  public var attached: Bool
  public var sources: Int
  /// What the program last reported of its config (`SOURCES config error=…`); `nil` once it
  /// reported `ok`, or before it reported.
  public var configError: String?

  public init(attached: Bool, sources: Int, configError: String? = nil) {
    self.attached = attached
    self.sources = sources
    self.configError = configError
  }

  /// The line, as the daemon writes it.
  public var line: String {
    "SOURCES attached=\(attached ? 1 : 0) sources=\(sources)" + (configError.map { " config_error=\($0)" } ?? "")
  }

  /// Reads the line; `nil` for any other line.
  public init?(_ line: String) {
    guard line.hasPrefix("SOURCES ") else { return nil }
    var attached: Bool?
    var sources: Int?
    var configError: String?
    let words = line.split(separator: " ", omittingEmptySubsequences: false).dropFirst()
    for (i, word) in zip(words.indices, words) {
      guard let eq = word.firstIndex(of: "=") else { return nil }
      let value = word[word.index(after: eq)...]
      switch word[..<eq] {
      case "attached": attached = value == "1"
      case "sources": sources = Int(value)
      case "config_error":
        configError = ([value] + words[(i + 1)...]).joined(separator: " ")
      default: continue
      }
      if configError != nil { break }
    }
    guard let attached, let sources else { return nil }
    self.init(attached: attached, sources: sources, configError: configError)
  }
}
