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
  /// with `environment` set.
  init(folder: TemporaryFolder, config: String, environment: [String: String] = [:]) throws {
    self.folder = folder
    let file = try folder.write("badged.conf", config)
    daemon = try DaemonProcess(folder: folder)
    (watcher, _) = try SourcesStage.watch(daemon)
    sources = try SourcesProcess(folder: folder, config: file, socket: daemon.socket, environment: environment)
  }

  /// Both programs' logs, for a failure's message.
  var context: String { "badged-sources:\n\(sources.log)\nbadged:\n\(daemon.log)" }

  /// Reads the watcher's events until the source's fresh count is `count`; that event's total.
  /// Fails at the first event past `limit`, or when none comes in time.
  func awaitCount(_ count: Int, limit: Int = 8) throws -> Int {
    var seen: [String] = []
    while seen.count < limit, let line = try watcher.readLine() {
      seen.append(line)
      if let state = Self.figures(line), state.count == count, state.fresh { return state.total }
    }
    throw TestFailure("no event with count=\(count) source=inbox stale=0: \(seen)\n\(context)")
  }

  /// `count=` and `total=` of a state line, and whether it says `source=inbox stale=0`.
  static func figures(_ line: String) -> (count: Int, total: Int, fresh: Bool)? {
    var fields: [String: String] = [:]
    for word in line.split(separator: " ").dropFirst(2) {
      let pair = word.split(separator: "=", maxSplits: 1)
      if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
    }
    guard let count = fields["count"].flatMap(Int.init), let total = fields["total"].flatMap(Int.init) else {
      return nil
    }
    return (count, total, fields["source"] == "inbox" && fields["stale"] == "0")
  }

  /// A watcher of `inbox` on `daemon`, past its snapshot; the snapshot's line for the channel.
  static func watch(_ daemon: DaemonProcess) throws -> (RawClient, String?) {
    let watcher = try daemon.client()
    let reply = try watcher.request("WATCH inbox")
    guard reply.last == "OK watching" else { throw TestFailure("WATCH failed: \(reply)") }
    return (watcher, reply.first { $0.hasPrefix("STATE inbox ") })
  }
}
