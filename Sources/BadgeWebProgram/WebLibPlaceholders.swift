// Stand-ins for BadgeWeb's types (branch web-lib), so that badged-web compiles and runs before
// that branch is merged: deleted at the merge, when the real types take these names.
import BadgeConfig
import BadgeCore
import BadgeProtocol
import BadgeRender
import BadgeSystem
import BadgeWeb

typealias EventRing = EventRingPlaceholder
typealias WebState = WebStatePlaceholder
typealias ServerSentEvent = ServerSentEventPlaceholder
typealias WebJSON = WebJSONPlaceholder
typealias WebConfig = WebConfigPlaceholder
typealias WebListenAddress = WebListenAddressPlaceholder
typealias TokenStore = TokenStorePlaceholder
typealias WebAccess = WebAccessPlaceholder
typealias WebRoute = WebRoutePlaceholder

/// The events every SSE client of badged-web reads: each formatted once, kept in order,
/// shared by every stream, so a change costs one formatting however many clients watch.
///
/// Clients hold cursors, absolute positions that only grow (the first entry ever appended is
/// at 0), so a cursor stays meaningful while old entries are dropped: one older than what is
/// kept `fellBehind` and starts again from a snapshot.
///
/// Resuming (`position(resumingAfter:)`) rests on the stream's ids (docs/WEB.md): a change
/// carries its seq as its id, every other event none, so a browser's `Last-Event-ID` is the
/// seq of the last change it drew. An entry's `key` is the change's seq, or for any other
/// event the seq of the last change before it; keys never fall within one epoch (the entries
/// since the last `rebase`), so the first entry a client missed is found by bisection.
struct EventRingPlaceholder: Sendable {
  /// One preformatted SSE event.
  struct Entry: Sendable, Equatable {
    /// The change's seq, or for another event the seq of the change before it.
    var key: UInt64
    /// Whether the event is a `change` (it carries `id: <key>`).
    var isChange: Bool
    /// The channel the event is about, to filter a stream's patterns; `nil` for the events of
    /// every client (dnd, reset, snapshot, offline).
    var channel: ChannelName?
    /// The event as sent, ending with its blank line.
    var bytes: [UInt8]

    init(key: UInt64, isChange: Bool, channel: ChannelName? = nil, bytes: [UInt8]) {
      self.key = key
      self.isChange = isChange
      self.channel = channel
      self.bytes = bytes
    }
  }

  /// What a reader gets.
  enum Read: Sendable, Equatable {
    /// The bytes of the entries from the cursor (empty when there is nothing new), and the
    /// cursor to read from next.
    case events([UInt8], next: UInt64)
    /// The cursor is older than the oldest entry kept: the client gets `reset` and a fresh
    /// snapshot, then reads on from `end`.
    case fellBehind
  }

  /// Where a client that resumes after a change's seq goes on.
  enum Resume: Sendable, Equatable {
    /// Read from this cursor: every event it missed is kept.
    case at(UInt64)
    /// Some changes after the id are no longer kept: the program replays them from badged
    /// (`WATCH since=<id>`), then reads on from `position(resumingAfter:)` of the last one.
    case needsReplay
    /// The id is past the latest seq known (a daemon that restarted, a made-up id): `reset`
    /// and a fresh snapshot.
    case reset
  }

  /// The most entries kept.
  let capacity: Int
  /// The most bytes kept (the newest entry is kept whatever its size).
  let byteLimit: Int
  /// Every change with a seq above `base` is kept, and every event after it.
  private(set) var base: UInt64
  /// The seq of the latest change appended (or the base of the latest rebase).
  private(set) var latestSeq: UInt64
  /// The position of the oldest entry kept.
  private(set) var start: UInt64 = 0
  /// The position of the first entry of the current epoch: those before it were appended
  /// before the daemon's sequence numbers started again.
  private(set) var epochStart: UInt64 = 0
  /// The bytes of the entries kept.
  private(set) var byteCount = 0
  /// The entries kept from `head` on (the ones before it are dropped, and cut away in bulk).
  private var storage: [Entry] = []
  private var head = 0

  static let defaultCapacity = 4096
  static let defaultByteLimit = 1 << 20

  /// An empty ring whose changes start after `base` (the seq of the feed's first snapshot).
  init(base: UInt64 = 0, capacity: Int = defaultCapacity, byteLimit: Int = defaultByteLimit) {
    precondition(capacity >= 1 && byteLimit >= 1, "a ring keeps at least one entry")
    self.base = base
    self.latestSeq = base
    self.capacity = capacity
    self.byteLimit = byteLimit
  }

  /// The entries kept.
  var count: Int { storage.count - head }
  /// The position after the newest entry: where a client that just got a snapshot reads on.
  var end: UInt64 { start + UInt64(count) }

  /// The entry at `position`, if it is kept.
  func entry(at position: UInt64) -> Entry? {
    guard position >= start, position < end else { return nil }
    return storage[head + Int(position - start)]
  }

  /// Appends a change with its seq. A seq not above `latestSeq` is refused (`false`, nothing
  /// appended): the feed then starts a new epoch with `rebase`.
  @discardableResult
  mutating func appendChange(seq: UInt64, channel: ChannelName?, bytes: [UInt8]) -> Bool {
    guard seq > latestSeq else { return false }
    latestSeq = seq
    push(Entry(key: seq, isChange: true, channel: channel, bytes: bytes))
    return true
  }

  /// Appends an event that is not a change (a pulse's end, dnd, offline), keyed by the latest
  /// change.
  mutating func appendEvent(channel: ChannelName?, bytes: [UInt8]) {
    push(Entry(key: latestSeq, isChange: false, channel: channel, bytes: bytes))
  }

  /// Starts a new epoch at `base` after the daemon answered `OK watching reset` (it restarted,
  /// or the feed was away too long): `bytes` (the `reset` event and the new snapshot) are
  /// appended for the clients reading along; a client resuming goes by the new numbers only.
  mutating func rebase(to base: UInt64, bytes: [UInt8]) {
    epochStart = end
    self.base = base
    latestSeq = base
    push(Entry(key: base, isChange: false, channel: nil, bytes: bytes))
  }

  /// Copies the entries from `cursor` on, whole, that `accepts` (every one when `nil`), until
  /// `maxBytes` would be passed; the first pending entry is copied whatever its size, so a
  /// reader always advances (the caller keeps what its buffer did not take).
  func read(from cursor: UInt64, upTo maxBytes: Int, accepts: ((Entry) -> Bool)? = nil) -> Read {
    guard cursor >= start else { return .fellBehind }
    var bytes: [UInt8] = []
    var position = min(cursor, end)
    while position < end {
      let entry = storage[head + Int(position - start)]
      if accepts?(entry) ?? true {
        if !bytes.isEmpty && bytes.count + entry.bytes.count > maxBytes { break }
        bytes += entry.bytes
      }
      position += 1
    }
    return .events(bytes, next: position)
  }

  /// Copies the entries of the channels `patterns` match (all when empty) and the events of
  /// every client.
  func read(from cursor: UInt64, upTo maxBytes: Int, patterns: [ChannelPattern]) -> Read {
    guard !patterns.isEmpty else { return read(from: cursor, upTo: maxBytes) }
    return read(from: cursor, upTo: maxBytes) { entry in
      guard let channel = entry.channel else { return true }
      return patterns.contains { $0.matches(channel) }
    }
  }

  /// Where a client whose last change had seq `id` reads on: the first entry of the epoch
  /// with a key above `id`, or with `id` and not a change (what came after that change).
  func position(resumingAfter id: UInt64) -> Resume {
    if id > latestSeq { return .reset }
    if id < base { return .needsReplay }
    var low = max(start, epochStart)
    var high = end
    while low < high {
      let middle = low + (high - low) / 2
      if storage[head + Int(middle - start)].key < id { low = middle + 1 } else { high = middle }
    }
    if let entry = entry(at: low), entry.key == id, entry.isChange { low += 1 }
    return .at(low)
  }

  /// Appends `entry` and drops the oldest entries past the limits, raising `base` past them:
  /// a dropped change takes its seq with it; a dropped other event takes its key's too (a
  /// client that resumes at that seq would miss it, so it is replayed).
  private mutating func push(_ entry: Entry) {
    storage.append(entry)
    byteCount += entry.bytes.count
    while count > 1 && (count > capacity || byteCount > byteLimit) {
      let dropped = storage[head]
      if start >= epochStart {
        base = max(base, dropped.isChange ? dropped.key : dropped.key + 1)
      }
      byteCount -= dropped.bytes.count
      head += 1
      start += 1
    }
    if head > 64 && head * 2 > storage.count {
      storage.removeFirst(head)
      head = 0
    }
  }
}
/// The lines of a Server-Sent Events stream (the WHATWG HTML standard's `text/event-stream`),
/// formatted once per event and shared by every client (`EventRing`).
enum ServerSentEventPlaceholder {
  /// An event: `id:` (when given), `event:`, `data:`, and the blank line that ends it. `data`
  /// is one line of JSON; a line end in it (never written by `WebJSON`) is replaced by a space,
  /// since each line would reach the browser as another `data:` line joined with a newline.
  static func event(_ name: String, id: UInt64? = nil, data: String) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(data.utf8.count + name.utf8.count + 32)
    if let id {
      bytes += Array("id: ".utf8)
      bytes += Array(String(id).utf8)
      bytes.append(0x0A)
    }
    bytes += Array("event: ".utf8)
    bytes += Array(name.utf8)
    bytes += Array("\ndata: ".utf8)
    for byte in data.utf8 { bytes.append(byte == 0x0A || byte == 0x0D ? 0x20 : byte) }
    bytes += [0x0A, 0x0A]
    return bytes
  }

  /// The comment sent every `keepalive` seconds on an idle stream, so proxies and phones keep
  /// it open; browsers ignore it.
  static let keepAlive: [UInt8] = Array(": keep-alive\n\n".utf8)

  /// The first line of every stream: how long a browser waits before it reconnects.
  static func retry(milliseconds: Int = 1000) -> [UInt8] {
    Array("retry: \(milliseconds)\n\n".utf8)
  }

  /// The event names of the stream (docs/WEB.md).
  enum Name {
    static let snapshot = "snapshot"
    static let change = "change"
    static let state = "state"
    static let dnd = "dnd"
    static let reset = "reset"
    static let offline = "offline"
  }
}

/// The JSON of badged-web's stream and API (docs/WEB.md), written by hand with `JSONObject`:
/// the page and scripts read these shapes, so each is spelled here once.
enum WebJSONPlaceholder {
  /// `<channel>`: a channel as the daemon's last `STATE`/`EVENT` line gave it. The fields are
  /// the protocol's (`pulse` the milliseconds left when the line was sent, `dnd` `off` or how
  /// do-not-disturb shows it, `step` what a stepper moves it by); `total` when the daemon sent
  /// it; for a channel mirrored from another machine `owner`, `stale` and `pending`; for one a
  /// source counts `source` and `stale`.
  static func channel(_ snapshot: ChannelSnapshot) -> JSONObject {
    var object = JSONObject()
    object.add("name", snapshot.channel)
    object.add("count", snapshot.count)
    object.add("label", snapshot.label)
    object.add("dot", snapshot.dot)
    object.add("pulse", snapshot.pulseMs)
    object.add("muted", snapshot.muted)
    object.add("seq", snapshot.seq)
    object.add("badge", snapshot.badge.rawValue)
    object.add("dnd", snapshot.silenced?.rawValue ?? "off")
    object.add("unseen", snapshot.unseen)
    object.add("step", snapshot.step)
    if let total = snapshot.total { object.add("total", total) }
    if let mirror = snapshot.mirror {
      object.add("owner", mirror.owner)
      object.add("stale", mirror.stale)
      if mirror.pending { object.add("pending", true) }
    }
    if let source = snapshot.source {
      object.add("source", source.name)
      object.add("stale", source.stale)
    }
    return object
  }

  /// `{"on":true,"left":1800000}`: do-not-disturb, and the milliseconds left of a timed one.
  static func dnd(_ dnd: DNDSnapshot) -> JSONObject {
    var object = JSONObject()
    object.add("on", dnd.isOn)
    object.add("left", dnd.leftMs)
    return object
  }

  /// `{"seq":<base>,"dnd":{…},"channels":[<channel>…]}`: the snapshot event's data and
  /// `GET /api/channels`' body.
  static func snapshot(seq: UInt64, dnd: DNDSnapshot, channels: [ChannelSnapshot]) -> String {
    var object = JSONObject()
    object.add("seq", seq)
    object.add("dnd", WebJSON.dnd(dnd).text)
    object.add("channels", objects: channels.map(channel))
    return object.text
  }

  /// `{"error":"<code>","message":"…"}`: every refusal of the API, `code` the protocol's
  /// error code where the daemon gave one.
  static func error(_ code: String, _ message: String? = nil) -> String {
    var object = JSONObject()
    object.add("error", code)
    if let message { object.add("message", message) }
    return object.text
  }

  /// `{"reason":"gap"}`: the data of a `reset` event.
  static func reset(reason: String) -> String {
    var object = JSONObject()
    object.add("reason", reason)
    return object.text
  }

  /// `{"since":<unix ms>}`: the data of an `offline` event.
  static func offline(since unixMs: Int64) -> String {
    var object = JSONObject()
    object.add("since", Int(unixMs))
    return object.text
  }
}

/// What badged-web knows of the daemon now: every channel's latest state, do-not-disturb, and
/// the highest seq they reflect. New clients get it as their `snapshot` (and `GET
/// /api/channels` as its body); each line the feed receives updates it and becomes the event
/// every client reads (`feed(_:into:)`).
struct WebStatePlaceholder: Sendable {
  /// The channels by name, as their latest `STATE` or `EVENT` line gave them.
  private(set) var channels: [String: ChannelSnapshot] = [:]
  private(set) var dnd = DNDSnapshot(isOn: false, leftMs: 0)
  /// The highest seq of a change reflected: the snapshot's `id`.
  private(set) var seq: UInt64 = 0

  init() {}

  /// What one line of the feed changed.
  enum Update: Sendable, Equatable {
    /// A channel's seq moved: a `change` event with `id: <seq>`.
    case change(seq: UInt64, channel: ChannelName?, bytes: [UInt8])
    /// A channel's state changed without a new seq (a pulse's end, `PULSE`, a reload, its dnd
    /// field): a `state` event without an id.
    case state(channel: ChannelName?, bytes: [UInt8])
    /// Do-not-disturb: a `dnd` event without an id.
    case dnd(bytes: [UInt8])
    /// Nothing for the clients (`OK`, an error, another kind of line).
    case none
  }

  /// Replaces everything with a snapshot (the reply to the feed's `WATCH`): `seq` becomes the
  /// highest of the channels' (or `seq` when given, for a daemon that names it).
  mutating func replace(dnd: DNDSnapshot, channels: [ChannelSnapshot], seq: UInt64? = nil) {
    self.dnd = dnd
    self.channels = Dictionary(channels.map { ($0.channel, $0) }, uniquingKeysWith: { _, later in later })
    self.seq = seq ?? channels.map(\.seq).max() ?? 0
  }

  /// Takes in one line of the feed: a channel's state, or do-not-disturb's.
  mutating func apply(_ line: ReplyLine) -> Update {
    switch line {
    case .state(let snapshot), .event(let snapshot): return apply(snapshot)
    case .dnd(let dnd, _): return apply(dnd)
    default: return .none
    }
  }

  /// Takes in a channel's state: a change when its seq is above every seq seen (a merged event
  /// carries the latest), otherwise a state event.
  mutating func apply(_ snapshot: ChannelSnapshot) -> Update {
    channels[snapshot.channel] = snapshot
    let name = ChannelName(snapshot.channel)
    let data = WebJSON.channel(snapshot).text
    if snapshot.seq > seq {
      seq = snapshot.seq
      return .change(
        seq: snapshot.seq, channel: name,
        bytes: ServerSentEvent.event(ServerSentEvent.Name.change, id: snapshot.seq, data: data))
    }
    return .state(channel: name, bytes: ServerSentEvent.event(ServerSentEvent.Name.state, data: data))
  }

  /// Takes in do-not-disturb's state.
  mutating func apply(_ dnd: DNDSnapshot) -> Update {
    self.dnd = dnd
    return .dnd(bytes: ServerSentEvent.event(ServerSentEvent.Name.dnd, data: WebJSON.dnd(dnd).text))
  }

  /// Takes in `line` and appends the event it makes to `ring`. A change whose seq the ring
  /// refuses (not above its latest) goes in as a state event, so nothing is lost.
  mutating func feed(_ line: ReplyLine, into ring: inout EventRing) {
    switch apply(line) {
    case .change(let seq, let channel, let bytes):
      if !ring.appendChange(seq: seq, channel: channel, bytes: bytes),
        let snapshot = channel.flatMap({ channels[$0.description] })
      {
        ring.appendEvent(
          channel: channel,
          bytes: ServerSentEvent.event(ServerSentEvent.Name.state, data: WebJSON.channel(snapshot).text))
      }
    case .state(let channel, let bytes): ring.appendEvent(channel: channel, bytes: bytes)
    case .dnd(let bytes): ring.appendEvent(channel: nil, bytes: bytes)
    case .none: break
    }
  }

  /// The channel called `name`, if the daemon has sent it.
  func channel(named name: String) -> ChannelSnapshot? { channels[name] }

  /// The channels `patterns` match (all when empty), by name.
  func channels(matching patterns: [ChannelPattern] = []) -> [ChannelSnapshot] {
    channels.values
      .filter { snapshot in
        patterns.isEmpty
          || ChannelName(snapshot.channel).map { name in patterns.contains { $0.matches(name) } } ?? false
      }
      .sorted { $0.channel < $1.channel }
  }

  /// `{"seq":…,"dnd":{…},"channels":[…]}` of the channels `patterns` match.
  func snapshotJSON(patterns: [ChannelPattern] = []) -> String {
    WebJSON.snapshot(seq: seq, dnd: dnd, channels: channels(matching: patterns))
  }

  /// The `snapshot` event, `id: <seq>`, of the channels `patterns` match.
  func snapshotEvent(patterns: [ChannelPattern] = []) -> [UInt8] {
    ServerSentEvent.event(ServerSentEvent.Name.snapshot, id: seq, data: snapshotJSON(patterns: patterns))
  }

  /// A `reset` event and the snapshot after it: what a client that fell behind, or whose id
  /// badged no longer knows, gets; and what a rebase of the ring holds.
  func resetEvents(reason: String = "gap", patterns: [ChannelPattern] = []) -> [UInt8] {
    ServerSentEvent.event(ServerSentEvent.Name.reset, data: WebJSON.reset(reason: reason))
      + snapshotEvent(patterns: patterns)
  }
}

enum WebListenAddressPlaceholder {
  case tcp(host: String, port: UInt16)
  case unix(path: String)
}

/// `[web]`: `listen` (one `host:port` or `unix:/path`), `root`, `tokens_file`, `keepalive`.
struct WebConfigPlaceholder {
  var listen: [WebListenAddress] = [.tcp(host: "127.0.0.1", port: 8787)]
  var certFile: String?
  var keyFile: String?
  var root = "/usr/share/badged/web"
  var tokensFile = "/nonexistent"
  var keepalive = 15
  var maxClients = 4096

  static func parse(_ entries: [ConfigEntry], file: String) throws(ConfigError) -> WebConfigPlaceholder {
    var config = WebConfigPlaceholder()
    for entry in entries where entry.section == "web" {
      switch entry.key {
      case "listen":
        if entry.value.hasPrefix("unix:") {
          config.listen = [.unix(path: String(entry.value.dropFirst(5)))]
        } else if let colon = entry.value.lastIndex(of: ":"),
          let port = UInt16(entry.value[entry.value.index(after: colon)...])
        {
          config.listen = [.tcp(host: String(entry.value[..<colon]), port: port)]
        } else {
          throw ConfigError(file: file, line: entry.line, reason: "bad listen")
        }
      case "root": config.root = entry.value
      case "tokens_file": config.tokensFile = entry.value
      case "keepalive":
        guard let seconds = Int(entry.value), (1...300).contains(seconds) else {
          throw ConfigError(file: file, line: entry.line, reason: "bad keepalive")
        }
        config.keepalive = seconds
      default: throw ConfigError(file: file, line: entry.line, reason: "unknown key \(entry.key)")
      }
    }
    return config
  }
}

/// A token is valid when a line of the file is `plain <token> <read|write>`.
final class TokenStorePlaceholder {
  let path: String
  init(path: String) { self.path = path }

  func authenticate(_ token: String) -> Bool? {
    guard let bytes = try? StateFiles.read(path) else { return nil }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
      let words = line.split(separator: " ")
      if words.count == 3, words[0] == "plain", words[1] == token { return words[2] == "write" }
    }
    return nil
  }
}

enum WebAccessPlaceholder {
  static func token(of request: HTTPRequest) -> String? {
    if let header = request.header("authorization"), header.hasPrefix("Bearer ") { return String(header.dropFirst(7)) }
    return request.cookie("badged_token")
  }

  static func refusal(_ request: HTTPRequest, route: WebRoute, access: Bool?, config: WebConfig) -> HTTPResponse? {
    guard let access else { return HTTPResponse.text(401, "{\"error\":\"unauthorized\"}", type: "application/json") }
    if case .write = route, !access {
      return HTTPResponse.text(403, "{\"error\":\"forbidden\"}", type: "application/json")
    }
    return nil
  }

  static func decorate(_ response: HTTPResponse, for request: HTTPRequest, config: WebConfig) -> HTTPResponse {
    var response = response
    response.headers += [("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff")]
    return response
  }
}

enum WebRoutePlaceholder {
  case file(String)
  case events(EventsRequest)
  case channels
  case channel(String)
  case write(ChannelName, ChannelWrite, id: String?)
  case refused(HTTPResponse)

  static func parse(_ request: HTTPRequest) -> WebRoutePlaceholder {
    let path = request.path
    if request.method == "GET", StaticFiles.table[path] != nil { return .file(path) }
    if request.method == "GET", path == "/events" {
      let last = request.header("last-event-id") ?? request.argument("lastEventId")
      return .events(
        EventsRequest(
          lastEventID: last.flatMap { UInt64($0) },
          patterns: request.arguments.filter { $0.name == "channel" }.map(\.value)))
    }
    if request.method == "GET", path == "/api/channels" { return .channels }
    let parts = path.split(separator: "/")
    if parts.count == 3, parts[0] == "api", parts[1] == "channels", request.method == "GET" {
      return .channel(String(parts[2]))
    }
    if parts.count == 4, parts[0] == "api", parts[1] == "channels", request.method == "POST",
      let name = ChannelName(parts[2])
    {
      let n = request.argument("n").flatMap { Int($0) } ?? 1
      let upto = request.argument("upto").flatMap { Int($0) }
      let write: ChannelWrite? =
        switch parts[3] {
        case "incr": .incr(n)
        case "decr": .decr(n)
        case "set": .set(n)
        case "clear": .clear(upTo: upto)
        case "seen": .seen(upTo: upto)
        default: nil
        }
      if let write { return .write(name, write, id: request.argument("id")) }
    }
    return .refused(HTTPResponse.text(404, "{\"error\":\"not-found\"}", type: "application/json"))
  }
}
