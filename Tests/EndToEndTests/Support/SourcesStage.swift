import Foundation

/// A source's channel `inbox` end to end: the built `badged` on a temporary socket, a watcher of
/// the channel past its snapshot, and the built `badged-sources` on a config of the test's own
/// whose source `inbox` counts into it. A kind's tests subclass it with what the source counts.
class SourcesStage {
  let folder: TemporaryFolder
  var daemon: DaemonProcess
  var watcher: RawClient
  let sources: SourcesProcess

  /// Starts the daemon and its watcher, then badged-sources on `config` (badged.conf's text)
  /// with `environment` set, run by `wrapper` when given (`ip netns exec …`: badged's socket is
  /// a Unix socket, which network namespaces do not divide).
  init(folder: TemporaryFolder, config: String, environment: [String: String] = [:], wrapper: [String] = []) throws {
    self.folder = folder
    let file = try folder.write("badged.conf", config)
    daemon = try DaemonProcess(folder: folder)
    (watcher, _) = try SourcesStage.watch(daemon)
    sources = try SourcesProcess(
      folder: folder, config: file, socket: daemon.socket, wrapper: wrapper, environment: environment)
  }

  /// Both programs' logs, for a failure's message.
  var context: String { "badged-sources:\n\(sources.log)\nbadged:\n\(daemon.log)" }

  /// Asks `SOURCES` until the source's line satisfies `condition`; that line.
  @discardableResult
  func awaitStatus(_ source: String = "inbox", _ condition: (String) -> Bool) throws -> String {
    try SourcesFixture.awaitStatus(source, on: daemon, condition) { context }
  }

  /// Reads the watcher's events until the source's fresh count is `count`; that event's total.
  /// Fails at the first event past `limit`, or when none comes in time.
  func awaitCount(_ count: Int, limit: Int = 8) throws -> Int {
    try Self.awaitCount(count, on: watcher, limit: limit) { context }
  }

  /// Reads `watcher`'s events until one shows `source`'s fresh count `count`; that event's
  /// total. Fails at the first event past `limit`, or when none comes in time, with `context`.
  static func awaitCount(
    _ count: Int, on watcher: RawClient, source: String = "inbox", limit: Int = 8, _ context: () -> String
  ) throws -> Int {
    var seen: [String] = []
    while seen.count < limit, let line = try watcher.readLine() {
      seen.append(line)
      if let state = figures(line, source: source), state.count == count, state.fresh { return state.total }
    }
    throw TestFailure("no event with count=\(count) source=\(source) stale=0: \(seen)\n\(context())")
  }

  /// `count=` and `total=` of a state line, and whether it says `source=<source> stale=0`.
  static func figures(_ line: String, source: String = "inbox") -> (count: Int, total: Int, fresh: Bool)? {
    var fields: [String: String] = [:]
    for word in line.split(separator: " ").dropFirst(2) {
      let pair = word.split(separator: "=", maxSplits: 1)
      if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
    }
    guard let count = fields["count"].flatMap(Int.init), let total = fields["total"].flatMap(Int.init) else {
      return nil
    }
    return (count, total, fields["source"] == source && fields["stale"] == "0")
  }

  /// A watcher of `channel` on `daemon`, past its snapshot; the snapshot's line for the channel.
  static func watch(_ daemon: DaemonProcess, channel: String = "inbox") throws -> (RawClient, String?) {
    let watcher = try daemon.client()
    let reply = try watcher.request("WATCH \(channel)")
    guard reply.last == "OK watching" else { throw TestFailure("WATCH failed: \(reply)") }
    return (watcher, reply.first { $0.hasPrefix("STATE \(channel) ") })
  }
}
