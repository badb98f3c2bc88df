import BadgeCore

/// A write to a channel, as a mirror forwards it to the owner on `<prefix>/ch/<channel>/cmd`:
/// `{"op":"incr","n":1,"id":"laptop:9f3a:41"}`, `{"op":"clear","upto":17,"id":…}`.
///
/// The same write is a request line between a bridge and its daemon (`DaemonLink`): a mirror's
/// daemon hands it over as one, an owner's bridge carries it out as one.
public struct ChannelCommand: Equatable, Sendable {
  public enum Op: Equatable, Sendable {
    case incr(Int)
    case decr(Int)
    case set(Int)
    /// Clears, up to the total the writer showed (a watermark), or everything.
    case clear(upto: Int64?)
    case seen(upto: Int64?)
    case mute
    case unmute
    /// Starts or extends the pulse window, for `ms` or the channel's own length.
    case pulse(ms: Int?)

    /// The op's word in JSON and, upper-cased, the request's command.
    public var word: String {
      switch self {
      case .incr: return "incr"
      case .decr: return "decr"
      case .set: return "set"
      case .clear: return "clear"
      case .seen: return "seen"
      case .mute: return "mute"
      case .unmute: return "unmute"
      case .pulse: return "pulse"
      }
    }
  }

  public var op: Op
  /// The request id that makes a redelivered write count once on the owner.
  public var id: String?

  public init(_ op: Op, id: String? = nil) {
    self.op = op
    self.id = id
  }

  /// The amounts an `incr`, `decr` or `set` accepts (a `set` may be 0).
  static let amounts: ClosedRange<Int64> = 1...Int64(Limits.maxCount)

  public var json: JSONValue {
    var members: [(key: String, value: JSONValue)] = [("op", .string(op.word))]
    switch op {
    case .incr(let n), .decr(let n), .set(let n): members.append(("n", .integer(Int64(n))))
    case .clear(let upto), .seen(let upto): if let upto { members.append(("upto", .integer(upto))) }
    case .pulse(let ms): if let ms { members.append(("ms", .integer(Int64(ms)))) }
    case .mute, .unmute: break
    }
    if let id { members.append(("id", .string(id))) }
    return .object(members)
  }

  public var payload: [UInt8] { Array(json.encoded.utf8) }

  /// Decodes a command strictly: a known op, only the members that op takes, each of its type
  /// and range. Unlike a state, a command with a member this version does not know is refused:
  /// carrying out a write without a condition a newer writer attached would be wrong.
  public init(payload: some Collection<UInt8>) throws(PayloadError) {
    let reader = try PayloadReader(payload)
    let word = try reader.requiredString("op", maxBytes: 16)
    switch word {
    case "incr", "decr":
      try reader.onlyKeys(["op", "n", "id"])
      let n = Int(try reader.integer("n", in: ChannelCommand.amounts) ?? 1)
      op = word == "incr" ? .incr(n) : .decr(n)
    case "set":
      try reader.onlyKeys(["op", "n", "id"])
      op = .set(Int(try reader.required("n", in: .counts)))
    case "clear", "seen":
      try reader.onlyKeys(["op", "upto", "id"])
      let upto = try reader.integer("upto", in: .nonNegative)
      op = word == "clear" ? .clear(upto: upto) : .seen(upto: upto)
    case "mute", "unmute":
      try reader.onlyKeys(["op", "id"])
      op = word == "mute" ? .mute : .unmute
    case "pulse":
      try reader.onlyKeys(["op", "ms", "id"])
      op = .pulse(ms: try reader.integer("ms", in: 1...Int64(Limits.pulseMs.upperBound)).map(Int.init))
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
