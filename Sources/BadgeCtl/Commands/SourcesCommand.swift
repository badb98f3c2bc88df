import BadgePOSIX
import BadgeProtocol
import BadgeRender

/// `badgectl sources`: the sources of `badged-sources` as they last reported to the daemon,
/// one line each: NAME, KIND, CHANNELS, COUNT, LAST CHANGE and STATE (`ok`, `recounting`,
/// `waiting`, `error: <why>`, `retrying in 12 s`).
struct SourcesCommand: Subcommand {
  static let spec = CommandSpec(
    name: "sources", abstract: "Show the sources that count channels by themselves.",
    discussion: """
      Asks the daemon for what badged-sources last reported of each source: its kind, how many
      channels it counts, their count, when it last changed, and its state (ok, recounting,
      waiting, error: <why>, or retrying in <n> s). Without a sources program it says so; a
      config badged-sources could not use is shown first. Exits 0 either way, 69 when the
      daemon cannot be reached. With --json, one object for the program, then one per source.
      """,
    options: [jsonFlag])

  static let jsonFlag = Flag("--json", help: "One JSON object per line: the program's state, then each source.")

  let json: Bool

  init(_ arguments: inout CommandArguments) {
    json = arguments.flag(Self.jsonFlag)
  }

  func run(socket: String) throws(CtlError) {
    var overview = SourcesOverview(attached: false, sources: 0)
    var statuses: [SourceStatus] = []
    try DaemonConnection(socket: socket).request(.sources(.query)) { line in
      guard case .data(let data) = line else { return }
      if let read = SourcesOverview(data) { overview = read }
      if let status = SourceStatus(listing: data) { statuses.append(status) }
    }
    let now = Int(Environment.wallClockMicroseconds / 1000)
    Output.write(
      json ? Self.json(overview, statuses) : Self.describe(overview, statuses, nowMs: now))
  }

  /// The table printed for the daemon's listing, with times as seen at `nowMs` (wall ms).
  static func describe(_ overview: SourcesOverview, _ statuses: [SourceStatus], nowMs: Int) -> String {
    var text = ""
    if let error = overview.configError { text += "config error: \(error)\n" }
    guard overview.attached else { return text + "no sources program attached\n" }
    guard !statuses.isEmpty else { return text + "no sources reported yet\n" }
    let header = ["NAME", "KIND", "CHANNELS", "COUNT", "LAST CHANGE", "STATE"]
    let rows = statuses.map { status in
      [
        status.name, status.kind, String(status.channels), String(status.count),
        status.changed.map { ago(nowMs - $0) } ?? "-", state(of: status, nowMs: nowMs),
      ]
    }
    let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
    for row in [header] + rows {
      let cells = row.indices.map { column in
        column == row.count - 1
          ? row[column] : row[column] + String(repeating: " ", count: widths[column] - row[column].count)
      }
      text += cells.joined(separator: "  ") + "\n"
    }
    return text
  }

  /// A source's state as the table shows it.
  static func state(of status: SourceStatus, nowMs: Int) -> String {
    switch status.state {
    case .error: return status.error.isEmpty ? "error" : "error: \(status.error)"
    case .retrying:
      guard let at = status.retryAt else { return "retrying" }
      let seconds = max(0, (at - nowMs + 999) / 1000)
      return "retrying in \(seconds) s" + (status.error.isEmpty ? "" : " (\(status.error))")
    default: return status.state.rawValue
    }
  }

  /// How long ago a change `ms` milliseconds old was: `12 s ago`, `5 min ago`, `3 h ago`,
  /// `2 d ago`; `just now` within a second (or ahead of this clock).
  static func ago(_ ms: Int) -> String {
    let seconds = ms / 1000
    if seconds < 1 { return "just now" }
    if seconds < 60 { return "\(seconds) s ago" }
    if seconds < 3600 { return "\(seconds / 60) min ago" }
    if seconds < 86_400 { return "\(seconds / 3600) h ago" }
    return "\(seconds / 86_400) d ago"
  }

  /// `{"attached":…,"sources":…[,"config_error":…]}`, then one object per source.
  static func json(_ overview: SourcesOverview, _ statuses: [SourceStatus]) -> String {
    var head = JSONObject()
    head.add("attached", overview.attached)
    head.add("sources", overview.sources)
    if let error = overview.configError { head.add("config_error", error) }
    var text = head.text + "\n"
    for status in statuses {
      var object = JSONObject()
      object.add("name", status.name)
      object.add("kind", status.kind)
      object.add("state", status.state.rawValue)
      object.add("channels", status.channels)
      object.add("count", status.count)
      if let changed = status.changed { object.add("changed", changed) }
      if let retryAt = status.retryAt { object.add("retry_at", retryAt) }
      if !status.error.isEmpty { object.add("error", status.error) }
      text += object.text + "\n"
    }
    return text
  }
}
