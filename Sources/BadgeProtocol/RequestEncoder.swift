import BadgeCore

/// Writes requests as protocol lines: the one spelling of every request, whoever sends it.
///
/// `badgectl`, `top` and `watch` send what it writes; the bridge writes every line it says to
/// its daemon with it (and the writes it carries out for other machines); the daemon writes the
/// request line of a forwarded write with it, in a `FORWARD` line and in the journal's and the
/// snapshot's record of the write; and a request's id is kept with the fingerprint of the line
/// it writes without the id (`Request.fingerprint`). `RequestParser` reads every line it writes
/// back as the same request.
///
/// The line is canonical: the command word in upper case (the row's, `Request.Command.word`),
/// then each argument as parsed, one space apart: amounts and counts always (`INCR mail 1`),
/// `upto=` when there is one, `CONFIGURE`'s settings each once, in the settings' order,
/// `STATS`'s period always, a duration in milliseconds (`DND on 5400000ms`), and the id last.
/// These forms are kept by ids saved on disk: another spelling of a request that takes an id
/// would make the ids saved with it unknown, so they do not change.
public enum RequestEncoder {
  /// The line of `request` with `id` (` id=<id>` last, when the request takes one), without
  /// its terminator.
  public static func line(_ request: Request, id: String? = nil) -> String {
    var bytes: [UInt8] = []
    bytes.appendWritten(maxLength: room(request, id: id)) { write(request, id: id, to: &$0) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the line of `request` with `id`, and its terminator (LF): what a client sends.
  public static func append(_ request: Request, id: String? = nil, to out: inout [UInt8]) {
    out.appendWritten(maxLength: room(request, id: id) + 1) { line in
      write(request, id: id, to: &line)
      line.write(0x0A)
    }
  }

  /// The room of a request on one channel but `CONFIGURE`, without an id: a command word, a
  /// channel name and an `upto=` or an amount, with room to spare; small enough for the stack.
  static let roomOfOneChannel = 128

  /// Whether the line of `request` without an id fits in `roomOfOneChannel`.
  @inline(__always)
  static func fitsOnTheStack(_ request: Request) -> Bool {
    if case .write = request { return true }  // nearly every request with an id
    return room(request, id: nil) <= roomOfOneChannel
  }

  /// The most bytes `write` writes for `request` with `id`.
  public static func room(_ request: Request, id: String?) -> Int {
    let idRoom = id.map { 4 + $0.utf8.count } ?? 0
    switch request {
    case .configure: return ProtocolInfo.maxLineLength + 512 + idRoom
    case .watch(let patterns, _): return 40 + 65 * patterns.count
    case .stats(_, let patterns): return 16 + 65 * patterns.count
    case .bridge(.status(let status)): return 96 + status.broker.utf8.count + status.error.utf8.count
    case .mirror(_, let update): return 320 + update.owner.utf8.count + update.label.utf8.count
    case .stale(let host, _, _): return 64 + host.utf8.count
    case .delivered(let id): return 16 + id.utf8.count
    case .remoteDND(let change): return 96 + change.from.utf8.count
    case .bridge(.attach(let host)): return 16 + host.utf8.count
    case .sources(.config(let error)): return 32 + (error?.utf8.count ?? 0)
    case .source(let name, .status(let status)): return 192 + name.utf8.count + status.fields.utf8.count
    default: return roomOfOneChannel + idRoom
    }
  }

  /// Writes the line of `request`, without its terminator: ` id=<id>` last when `id` is given
  /// and the request takes one (`takesID`: a `PULSE` forwarded with its outbox id has none).
  public static func write(_ request: Request, id: String?, to w: inout ByteWriter) {
    if case .write(let name, let write) = request {
      self.write(write, of: name, to: &w)  // nearly every line written, the word found at once
    } else {
      w.write(request.command.word)
      arguments(of: request, to: &w)
    }
    if let id, request.takesID {
      w.write(" id=")
      text(id, to: &w)
    }
  }

  /// A write's line: its word, the channel, and the write's argument, if any.
  @inline(__always)
  private static func write(_ write: ChannelWrite, of name: ChannelName, to w: inout ByteWriter) {
    w.write(write.command.word)
    channel(name, to: &w)
    switch write {
    case .incr(let n), .decr(let n), .set(let n): number(" ", n, to: &w)
    case .report(let n, let arrived, let unseen):
      number(" ", n, to: &w)
      number(" new=", arrived, to: &w)
      if let unseen { number(" unseen=", unseen, to: &w) }
    case .clear(let upTo), .seen(let upTo): if let upTo { number(" upto=", upTo, to: &w) }
    case .mute, .unmute: break
    case .pulse(let ms): if let ms { number(" ", ms, to: &w) }
    }
  }

  /// The words after the command word of any request but a write.
  private static func arguments(of request: Request, to w: inout ByteWriter) {
    switch request {
    case .write: break  // written with its word, by `write(_:of:to:)`
    case .clearAll, .seenAll: w.write(" *")
    case .get(let name): channel(name, to: &w)
    case .forgetMirror(let name):
      channel(name, to: &w)
      w.write(" forget")
    case .configure(let name, let set, let reset):
      channel(name, to: &w)
      settings(set, reset: reset, to: &w)
    case .watch(let patterns, let since):
      if let since {
        w.write(" since=")
        w.write(decimal: since)
      }
      self.patterns(patterns, to: &w)
    case .stats(let period, let patterns):
      w.write(" ")
      text(period.rawValue, to: &w)
      self.patterns(patterns, to: &w)
    case .dnd(let dnd): self.dnd(dnd, to: &w)
    case .remoteDND(let change):
      self.dnd(change.on ? .on(ms: change.ms) : .off, to: &w)
      w.write(" from=")
      text(change.from, to: &w)
      w.write(" at=")
      w.write(decimal: change.at)
    case .bridge(let bridge): self.bridge(bridge, to: &w)
    case .mirror(let name, let update):
      channel(name, to: &w)
      mirror(update, to: &w)
    case .stale(let host, let stale, let since):
      w.write(" ")
      text(host, to: &w)
      w.write(stale ? " 1" : " 0")
      if let since { number(" since=", since, to: &w) }
    case .delivered(let id):
      w.write(" ")
      text(id, to: &w)
    case .sources(let sources): self.sources(sources, to: &w)
    case .source(let name, let source):
      w.write(" ")
      text(name, to: &w)
      self.source(source, to: &w)
    case .hello, .ping, .list, .unwatch, .reload, .quit, .forwards: break
    }
  }

  // MARK: - Arguments

  /// `SOURCES`' words: none, `attach`, `config ok` or `config error=<text>`.
  private static func sources(_ request: SourcesRequest, to w: inout ByteWriter) {
    switch request {
    case .query: break
    case .attach: w.write(" attach")
    case .config(nil): w.write(" config ok")
    case .config(let error?):
      w.write(" config error=")
      text(error, to: &w)
    }
  }

  /// A source's request after its name: `claim <channel> on_clear=…`, `release <channel>`,
  /// `status` and its fields (`SourceStatus.fields`), or `stopped`.
  private static func source(_ request: SourceRequest, to w: inout ByteWriter) {
    switch request {
    case .claim(let name, let markRead):
      w.write(" claim")
      channel(name, to: &w)
      w.write(markRead ? " on_clear=mark-read" : " on_clear=seen")
    case .release(let name):
      w.write(" release")
      channel(name, to: &w)
    case .status(let status):
      w.write(" status ")
      text(status.fields, to: &w)
    case .stopped:
      w.write(" stopped")
    }
  }

  /// `CONFIGURE`'s settings: each key once, in the settings' order, set to its value as the
  /// config file writes it, or `default`.
  private static func settings(_ set: SettingsOverride, reset: [SettingKey], to w: inout ByteWriter) {
    for key in SettingKey.allCases {
      var without = set
      key.reset(in: &without)
      let value = reset.contains(key) ? "default" : without == set ? nil : key.format(set.applied(to: .defaults))
      guard let value else { continue }
      w.write(" ")
      text(key.rawValue, to: &w)
      w.write("=")
      text(value, to: &w)
    }
  }

  /// `DND`'s words: none (a query), `on [<ms>ms]`, `off` or `toggle`.
  private static func dnd(_ request: DNDRequest, to w: inout ByteWriter) {
    switch request {
    case .query: break
    case .on(let ms):
      w.write(" on")
      if let ms {
        number(" ", ms, to: &w)
        w.write("ms")
      }
    case .off: w.write(" off")
    case .toggle: w.write(" toggle")
    }
  }

  /// `BRIDGE`'s words: none (a query), `host=<host>`, or `status …` with `error=` last, the
  /// rest of the line, when there is one (a LF in it written as a space: the request must stay
  /// one line).
  private static func bridge(_ request: BridgeRequest, to w: inout ByteWriter) {
    switch request {
    case .query: break
    case .attach(let host):
      w.write(" host=")
      text(host, to: &w)
    case .status(let status):
      w.write(status.connected ? " status connected=1 broker=" : " status connected=0 broker=")
      text(status.broker, to: &w)
      number(" pending=", status.pending, to: &w)
      guard !status.error.isEmpty else { return }
      w.write(" error=")
      for byte in status.error.utf8 { w.write(byte == 0x0A ? 0x20 : byte) }
    }
  }

  /// `MIRROR`'s owner's state: every field, in the usage's order.
  private static func mirror(_ update: MirrorUpdate, to w: inout ByteWriter) {
    w.write(" owner=")
    text(update.owner, to: &w)
    number(" count=", update.count, to: &w)
    number(" unseen=", update.unseen, to: &w)
    number(" total=", update.total, to: &w)
    w.write(update.muted ? " muted=1" : " muted=0")
    w.write(update.dot ? " dot=1" : " dot=0")
    w.write(" label=")
    text(update.label, to: &w)
    number(" pulse=", update.pulseMs, to: &w)
    w.write(" oseq=")
    w.write(decimal: update.ownerSeq)
  }

  // MARK: - Words

  @inline(__always)
  private static func channel(_ name: ChannelName, to w: inout ByteWriter) {
    w.write(UInt8(ascii: " "))
    name.withBytes { w.write($0) }
  }

  @inline(__always)
  private static func number(_ prefix: StaticString, _ value: Int, to w: inout ByteWriter) {
    w.write(prefix)
    w.write(decimal: value)
  }

  private static func patterns(_ patterns: [ChannelPattern], to w: inout ByteWriter) {
    for pattern in patterns {
      w.write(" ")
      text(pattern.description, to: &w)
    }
  }

  private static func text(_ text: String, to w: inout ByteWriter) {
    var text = text
    text.withUTF8 { w.write(UnsafeRawBufferPointer($0)) }
  }
}

extension Request {
  /// The request in its canonical form: its line without an id (`RequestEncoder`), so that
  /// `INCR mail` and `incr  mail 1` are the same request.
  public var canonical: String { RequestEncoder.line(self) }

  /// The fingerprint of `canonical` (FNV-1a 64), which an id is saved with: written on the
  /// stack and hashed there (a line that may be longer, as a `CONFIGURE`'s, on the heap). On
  /// the path of every request that comes with an id, so nothing is allocated for most.
  public var fingerprint: UInt64 {
    var fingerprint = Fingerprint()
    guard RequestEncoder.fitsOnTheStack(self) else {
      Array(canonical.utf8).withUnsafeBytes { fingerprint.add($0) }
      return fingerprint.value
    }
    withUnsafeTemporaryAllocation(byteCount: RequestEncoder.roomOfOneChannel, alignment: 1) { buffer in
      var writer = ByteWriter(buffer)
      RequestEncoder.write(self, id: nil, to: &writer)
      fingerprint.add(writer.written(from: 0))
    }
    return fingerprint.value
  }
}
