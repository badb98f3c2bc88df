import Foundation
import TestSupport

/// What the recording watcher (Fixtures/tray-watcher.py) reports, one JSON line each: an item
/// registering or leaving, a frame read after a `NewIcon`, a status, or a command's answer.
struct TrayEvent: Decodable, CustomStringConvertible {
  /// The bounding box of the badge-colour pixels of a frame's 64 px pixmap.
  struct Capsule: Decodable, Equatable {
    let x: Int
    let y: Int
    let w: Int
    let h: Int
  }

  /// One entry of a dbusmenu layout's root.
  struct MenuEntry: Decodable {
    let id: Int
    let label: String
    let type: String
    let toggleState: Int?

    enum CodingKeys: String, CodingKey {
      case id, label, type
      case toggleState = "toggle-state"
    }

    /// The label's words: "mail   3" → ["mail", "3"] (however many blanks the menu puts between).
    var words: [String] { label.split(separator: " ").map(String.init) }
  }

  let event: String
  let item: String?
  /// `icon`: how many NewIcon signals the item had sent when this frame was read.
  let n: Int?
  /// `icon`: when the watcher read it (CLOCK_MONOTONIC seconds).
  let t: Double?
  /// `icon`: the item's FrameElapsed and FrameScale.
  let elapsed: Double?
  let scale: Double?
  /// `icon`: the sizes IconPixmap holds, and the capsule in its 64 px entry (nil: no badge colour).
  let sizes: [Int]?
  let capsule: Capsule?
  /// `status`, `props`: the Status property.
  let status: String?
  /// `props`: Title, ToolTip's title and text, XAyatanaLabel.
  let title: String?
  let tooltip: [String]?
  let label: String?
  /// `layout`: the revision and the root's entries.
  let revision: Int?
  let entries: [MenuEntry]?
  /// `items`: the registered items.
  let items: [String]?
  /// `error`: what failed.
  let message: String?

  /// The line it was read from, for failure messages.
  var line = ""
  var description: String { line }

  enum CodingKeys: String, CodingKey {
    case event, item, n, t, elapsed, scale, sizes, capsule, status, title, tooltip, label, revision, entries, items
    case message
  }
}

/// The recording StatusNotifierWatcher on a private bus: it owns org.kde.StatusNotifierWatcher
/// as a panel does, and reports every registration and every frame the items send. The test
/// reads its reports in order; a command's answer comes after every report before it, so a
/// `sync` answers "every signal the item sent before now has been read".
final class TrayWatcher {
  private let child: Child
  private var input: LineInput
  private let stderrPath: String
  /// Every report read so far, in order.
  private(set) var events: [TrayEvent] = []
  /// How many of `events` `next(_:)` has handed out.
  private var consumed = 0

  init(bus: SessionBus, folder: TemporaryFolder) throws {
    stderrPath = folder.file("tray-watcher-\(UUID().uuidString.prefix(6)).log")
    child = try Child(
      ["/usr/bin/python3", Repository.path("Tests/EndToEndTests/Fixtures/tray-watcher.py")],
      environment: Child.environment(bus.environment), stdin: .pipe, stdout: .pipe, stderr: .file(stderrPath))
    input = LineInput(fd: child.output)
    try next("ready") { $0.event == "ready" }
  }

  deinit {
    child.closeInput()
    child.signal(SIGTERM)
    child.wait()
  }

  /// What the watcher wrote to standard error (a Python traceback, if it failed).
  var log: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

  /// The next report after the last one handed out that satisfies `match`, reading more as
  /// needed (the ones skipped stay in `events`).
  @discardableResult
  func next(_ what: String, timeout: Double = 10, _ match: (TrayEvent) -> Bool) throws -> TrayEvent {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      while consumed < events.count {
        consumed += 1
        if match(events[consumed - 1]) { return events[consumed - 1] }
      }
      guard try read(timeout: deadline.timeIntervalSinceNow, what: what) else {
        throw TestFailure("the tray watcher ended while waiting for \(what): \(log)")
      }
    }
  }

  /// The reports read until none came for `quiet` seconds (the frames of a motion that ends
  /// by itself), after the last one handed out.
  func quietReports(quiet: Double) throws -> [TrayEvent] {
    while (try? read(timeout: quiet, what: "a report")) == true {}
    defer { consumed = events.count }
    return Array(events[consumed...])
  }

  /// Sends one command and returns its answer (an `error` answer is thrown).
  @discardableResult
  func send(_ command: String, answer: String) throws -> TrayEvent {
    let bytes = Array((command + "\n").utf8)
    guard bytes.withUnsafeBytes({ write(child.input, $0.baseAddress, $0.count) }) == bytes.count else {
      throw TestFailure("writing to the tray watcher failed: errno \(errno)")
    }
    let reply = try next(command) { $0.event == answer || $0.event == "error" }
    if reply.event == "error" { throw TestFailure("\(command): \(reply.message ?? "")") }
    return reply
  }

  /// `item`'s registration with this watcher, waiting for it if it has not come yet (items of
  /// one program register in any order; the reports handed out by `next` stay as they were).
  @discardableResult
  func registration(of item: String, timeout: Double = 10) throws -> TrayEvent {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let found = events.first(where: { $0.event == "registered" && $0.item == item }) { return found }
      guard try read(timeout: deadline.timeIntervalSinceNow, what: "the registration of \(item)") else {
        throw TestFailure("the tray watcher ended while waiting for \(item) to register: \(log)")
      }
    }
  }

  /// Every signal `item` sent before now has been read (a D-Bus round trip with it).
  func sync(_ item: String) throws { try send("sync \(item)", answer: "sync") }

  /// The next frame of `item` that satisfies `match`.
  @discardableResult
  func frame(of item: String, timeout: Double = 10, _ match: (TrayEvent) -> Bool = { _ in true }) throws -> TrayEvent {
    try next("a frame of \(item)", timeout: timeout) { $0.event == "icon" && $0.item == item && match($0) }
  }

  /// The frame `item` holds now, read on demand.
  func currentFrame(of item: String) throws -> TrayEvent { try send("icon \(item)", answer: "icon") }

  func properties(of item: String) throws -> TrayEvent { try send("props \(item)", answer: "props") }

  func layout(of item: String) throws -> TrayEvent { try send("layout \(item)", answer: "layout") }

  /// Clicks the menu entry `id` of `item` (dbusmenu `Event(id, "clicked", 0, 0)`) and waits for the call to return.
  func click(_ item: String, entry id: Int) throws { try send("event \(item) \(id)", answer: "clicked") }

  /// Reads one report into `events`; false at end of file.
  private func read(timeout: Double, what: String) throws -> Bool {
    guard let line = try input.next(timeout: max(timeout, 0), what: "the tray watcher (\(what))") else { return false }
    var event = try JSONDecoder().decode(TrayEvent.self, from: Data(line.utf8))
    event.line = line
    events.append(event)
    return true
  }
}
