import BadgeCore

/// A write to a channel, as a mirror forwards it to the owner on `<prefix>/ch/<channel>/cmd`:
/// `{"op":"incr","n":1,"id":"laptop:9f3a:41"}`, `{"op":"clear","upto":17,"id":…}`.
///
/// The write is BadgeCore's `ChannelWrite`, the one form of a write everywhere: a mirror's
/// daemon hands it over as a request line (`ReplyLine.forward`), an owner's bridge carries it
/// out as one (`RequestEncoder`); here are only its JSON words.
public struct ChannelCommand: Equatable, Sendable {
  public var write: ChannelWrite
  /// The request id that makes a redelivered write count once on the owner.
  public var id: String?

  public init(_ write: ChannelWrite, id: String? = nil) {
    self.write = write
    self.id = id
  }

  /// The write's word in JSON (`op`), and in log lines.
  public var op: String {
    switch write {
    case .incr: return "incr"
    case .decr: return "decr"
    case .set, .report: return "set"
    case .clear: return "clear"
    case .seen: return "seen"
    case .mute: return "mute"
    case .unmute: return "unmute"
    case .pulse: return "pulse"
    }
  }

  public var json: JSONValue {
    var members: [(key: String, value: JSONValue)] = [("op", .string(op))]
    switch write {
    case .incr(let n), .decr(let n), .set(let n): members.append(("n", .integer(Int64(n))))
    case .report(let n, let arrived, let unseen):
      // Never forwarded (a mirror refuses a report: its source is its owner's), but spelled all
      // the same, as the request line is: `set` with the arrivals.
      members.append(("n", .integer(Int64(n))))
      members.append(("new", .integer(Int64(arrived))))
      if let unseen { members.append(("unseen", .integer(Int64(unseen)))) }
    case .clear(let upTo), .seen(let upTo): if let upTo { members.append(("upto", .integer(Int64(upTo)))) }
    case .pulse(let ms): if let ms { members.append(("ms", .integer(Int64(ms)))) }
    case .mute, .unmute: break
    }
    if let id { members.append(("id", .string(id))) }
    return .object(members)
  }

  public var payload: [UInt8] { Array(json.encoded.utf8) }

  /// Decodes a command strictly: a known op, only the members that op takes, each of its type
  /// and within the write's range (`ChannelWrite`). Unlike a state, a command with a member this
  /// version does not know is refused: carrying out a write without a condition a newer writer
  /// attached would be wrong.
  public init(payload: some Collection<UInt8>) throws(PayloadError) {
    let reader = try PayloadReader(payload)
    let word = try reader.requiredString("op", maxBytes: 16)
    switch word {
    case "incr", "decr":
      try reader.onlyKeys(["op", "n", "id"])
      let n = Int(try reader.integer("n", in: ClosedRange(ChannelWrite.amounts)) ?? 1)
      write = word == "incr" ? .incr(n) : .decr(n)
    case "set":
      try reader.onlyKeys(["op", "n", "new", "unseen", "id"])
      let n = Int(try reader.required("n", in: ClosedRange(ChannelWrite.counts)))
      let unseen = try reader.integer("unseen", in: ClosedRange(ChannelWrite.counts)).map(Int.init)
      if let arrived = try reader.integer("new", in: ClosedRange(ChannelWrite.counts)).map(Int.init) {
        write = .report(count: n, arrived: arrived, unseen: unseen)
      } else {
        guard unseen == nil else { throw PayloadError("'unseen' goes with 'new'") }
        write = .set(n)
      }
    case "clear", "seen":
      try reader.onlyKeys(["op", "upto", "id"])
      let upTo = try reader.integer("upto", in: .nonNegative).map(Int.init)
      write = word == "clear" ? .clear(upTo: upTo) : .seen(upTo: upTo)
    case "mute", "unmute":
      try reader.onlyKeys(["op", "id"])
      write = word == "mute" ? .mute : .unmute
    case "pulse":
      try reader.onlyKeys(["op", "ms", "id"])
      write = .pulse(ms: try reader.integer("ms", in: ClosedRange(ChannelWrite.pulseLengths)).map(Int.init))
    default:
      throw PayloadError("unknown op '\(word)'")
    }
    id = try reader.requestID()
  }
}

/// An owner's answer to a command, on the response topic the command named, with its
/// correlation data: `{"id":…,"ok":true}` or `{"id":…,"ok":false,"error":"<code> <message>"}`.
public struct CommandAnswer: Equatable, Sendable {
  public var id: String?
  /// The daemon's `ERR` code and message, when it refused the write; `nil` when it applied it.
  public var error: String?

  public init(id: String?, error: String? = nil) {
    self.id = id
    self.error = error
  }

  public var ok: Bool { error == nil }

  /// The error's code: its first word.
  public var code: String? { error.map { String($0.prefix { $0 != " " }) } }

  public var payload: [UInt8] {
    var members: [(key: String, value: JSONValue)] = []
    if let id { members.append(("id", .string(id))) }
    members.append(("ok", .bool(ok)))
    if let error { members.append(("error", .string(error.truncated(toUTF8: MeshLimits.maxErrorBytes)))) }
    return Array(JSONValue.object(members).encoded.utf8)
  }

  public init(payload: some Collection<UInt8>) throws(PayloadError) {
    let reader = try PayloadReader(payload)
    try reader.onlyKeys(["id", "ok", "error"])
    id = try reader.requestID()
    let ok = try reader.requiredBool("ok")
    error = try reader.string("error", maxBytes: MeshLimits.maxErrorBytes)
    if ok && error != nil { throw PayloadError("an answer both ok and with an error") }
    if !ok && error == nil { throw PayloadError("a refusal without its error") }
  }
}
