import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The built `badged` on a temporary socket and the built `badged-sources` on a config file
/// of the test's own, with a watcher of every channel: what the exec, files, fault, resume and
/// leak suites share (`SourcesStage` watches the one channel `inbox` for a kind's own suite).
/// Every wait is for something the daemon or the program tells (an event, a `SOURCES` reply,
/// a log line), never for time alone.
final class SourcesFixture {
  let folder: TemporaryFolder
  /// The sources' config file, rewritten by `rewrite(_:)`.
  let config: String
  var daemon: DaemonProcess
  /// Watches every channel, past its snapshot.
  var watcher: RawClient
  /// The program; a test may start it again (`SourcesProcess` on the same config and socket).
  var sources: SourcesProcess
  /// Every event line the watcher read so far, for a failure's message.
  private(set) var events: [String] = []

  /// Starts the daemon, its watcher, then badged-sources on `config` (the file's text), with
  /// `environment` more for badged-sources (`NOTIFY_SOCKET`).
  init(folder: TemporaryFolder? = nil, config text: String, environment: [String: String] = [:]) throws {
    self.folder = try folder ?? TemporaryFolder()
    config = try self.folder.write("sources.conf", text)
    daemon = try DaemonProcess(folder: self.folder)
    watcher = try Self.watchAll(daemon)
    sources = try SourcesProcess(
      folder: self.folder, config: config, socket: daemon.socket, environment: environment)
  }

  /// `[source.inbox]` counting `maildir` into channel `inbox`, and `more` after it.
  static func inbox(_ maildir: TestMaildir, _ more: String = "") -> String {
    "[source.inbox]\nkind = maildir\npath = \(maildir.root)\n" + more
  }

  /// `delivered` messages into `maildir`, then a stage counting it (`inbox(_:)`), past the
  /// event of its first count.
  static func counting(_ maildir: inout TestMaildir, in folder: TemporaryFolder, delivered: Int) throws
    -> SourcesFixture
  {
    for _ in 0..<delivered { try maildir.deliver() }
    let stage = try SourcesFixture(folder: folder, config: inbox(maildir))
    try stage.awaitEvent("inbox", count: delivered)
    return stage
  }

  /// A watcher of every channel of `daemon`, past its snapshot.
  static func watchAll(_ daemon: DaemonProcess) throws -> RawClient {
    let watcher = try daemon.client()
    let reply = try watcher.request("WATCH")
    guard reply.last == "OK watching" else { throw TestFailure("WATCH failed: \(reply)") }
    return watcher
  }

  /// Both programs' logs and the events seen, for a failure's message.
  var context: String {
    "events:\n\(events.joined(separator: "\n"))\nbadged-sources:\n\(sources.log)\nbadged:\n\(daemon.log)"
  }

  /// Where each channel's next `awaitEvent` starts looking in `events`.
  private var cursors: [String: Int] = [:]
  /// Where a channel not awaited yet starts: past the events of an earlier watcher.
  private var floor = 0

  /// The first event of `channel` past the last one awaited that says `count=` and `stale=` as
  /// asked, reading more as needed; that event. Events of other channels stay for their own
  /// waits.
  @discardableResult
  func awaitEvent(_ channel: String, count: Int, stale: Bool = false, timeout: Double = 10) throws -> String {
    let matches = { (line: String) in
      line.hasPrefix("EVENT \(channel) ") && field(line, "count") == "\(count)"
        && field(line, "stale") == (stale ? "1" : "0")
    }
    var index = cursors[channel] ?? floor
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      while index < events.count {
        index += 1
        if matches(events[index - 1]) {
          cursors[channel] = index
          return events[index - 1]
        }
      }
      guard deadline.timeIntervalSinceNow > 0,
        let line = try? watcher.readLine(timeout: max(0.01, deadline.timeIntervalSinceNow))
      else { break }
      events.append(line)
    }
    throw TestFailure("no event of \(channel) with count=\(count) stale=\(stale ? 1 : 0)\n\(context)")
  }

  /// A new watcher of every channel (after the daemon restarted); the events seen so far stay.
  func watchAgain() throws {
    watcher = try Self.watchAll(daemon)
    events.append("(watching again)")
    floor = events.count
    cursors = [:]
  }

  /// The `SOURCE <name> …` line of a `SOURCES` query now; `nil` when the source is not listed.
  func status(of source: String) throws -> String? { try Self.status(of: source, on: daemon) }

  static func status(of source: String, on daemon: DaemonProcess) throws -> String? {
    try daemon.client().request("SOURCES").first { $0.hasPrefix("SOURCE \(source) ") }
  }

  /// Asks `SOURCES` until the source's line satisfies `condition`; that line.
  @discardableResult
  func awaitStatus(_ source: String, _ condition: (String) -> Bool) throws -> String {
    try Self.awaitStatus(source, on: daemon, condition) { context }
  }

  /// Asks `daemon`'s `SOURCES` until the source's line satisfies `condition`; that line.
  @discardableResult
  static func awaitStatus(
    _ source: String, on daemon: DaemonProcess, _ condition: (String) -> Bool, _ context: () -> String
  ) throws -> String {
    var last: String?
    let found = try waitUntil {
      last = try status(of: source, on: daemon)
      return last.map(condition) ?? false
    }
    guard found, let last else {
      throw TestFailure("source \(source) never matched; last: \(last ?? "none")\n\(context())")
    }
    return last
  }

  /// Rewrites the config file with `text` and sends SIGHUP; returns once the program logged
  /// its reload's outcome (accepted or refused).
  func reload(_ text: String) throws {
    let before = reloads
    try text.write(toFile: config, atomically: true, encoding: .utf8)
    sources.signal(SIGHUP)
    guard waitUntil({ reloads > before }) else { throw TestFailure("no reload logged\n\(context)") }
  }

  /// How many reloads the program logged (accepted or refused).
  var reloads: Int {
    let log = sources.log
    return log.components(separatedBy: "<6>Reloaded: ").count + log.components(separatedBy: "Reload refused").count - 2
  }

  /// How many lines of the program's log contain `text`.
  func logLines(containing text: String) -> Int { sources.logLines(containing: text) }

}

extension TemporaryFolder {
  /// Writes a shell script `name` here; the command that runs it, `/bin/sh <path>`. The shell
  /// reads it rather than the kernel executing it, so a file another test's fork still holds
  /// open for writing (`ETXTBSY`) never fails a run.
  func script(_ name: String, _ body: String) throws -> String {
    "/bin/sh " + (try write(name, body))
  }
}

/// What `/proc` tells of a running process, for the fault and leak suites.
enum ProcFacts {
  /// The inotify watches the process holds: `inotify wd:` lines of all its fds' fdinfo.
  static func inotifyWatches(_ pid: Int32) -> Int {
    fds(pid).reduce(0) { sum, fd in
      let info = (try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(fd)", encoding: .utf8)) ?? ""
      return sum + info.split(separator: "\n").filter { $0.hasPrefix("inotify wd:") }.count
    }
  }

  /// The process's open file descriptors.
  static func fds(_ pid: Int32) -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
  }

  /// The process ids of its children, of every thread.
  static func children(_ pid: Int32) -> [Int32] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.flatMap { task in
      let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
      return text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
  }

  /// The processes whose process group is `group`.
  static func members(ofGroup group: Int32) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).filter { pid in
      guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return false }
      // After "pid (comm) ": state, ppid, pgrp.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      return fields.count > 2 && Int32(fields[2]) == group
    }
  }
}
