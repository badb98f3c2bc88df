import BadgeCore

/// What a channel shows, as a daemon reports it on a state line: the part of its state that
/// one machine carries to another.
public struct ChannelFigures: Equatable, Sendable {
  public var count: Int
  /// What the badge shows, as the owner's daemon labels it (`3`, `99+`, `•`, `◦` or empty).
  public var label: String
  public var dot: Bool
  public var muted: Bool
  public var unseen: Int
  /// The sum of the channel's increases, which clears name as their watermark; `nil` from a
  /// daemon that does not report it.
  public var total: Int64?
  /// The sequence number of the channel's last change on the daemon that reported it.
  public var seq: UInt64
  /// Milliseconds left of the pulse window when it was reported.
  public var pulseMs: Int

  public init(
    count: Int, label: String, dot: Bool = false, muted: Bool = false, unseen: Int, total: Int64?, seq: UInt64,
    pulseMs: Int = 0
  ) {
    self.count = count
    self.label = label
    self.dot = dot
    self.muted = muted
    self.unseen = unseen
    self.total = total
    self.seq = seq
    self.pulseMs = pulseMs
  }
}

/// A channel's state as its owner publishes it on `<prefix>/ch/<channel>/state` (retained):
///
/// ```json
/// {"count":3,"label":"3","dot":false,"muted":false,"unseen":2,"total":17,"seq":42,
///  "owner":"desktop","pulse":2100,"claimed":1764620000123}
/// ```
public struct ChannelState: Equatable, Sendable {
  public var figures: ChannelFigures
  /// The host that owns the channel.
  public var owner: String
  /// When the owner first claimed the channel, in wall-clock milliseconds since 1970: the
  /// earlier claim wins (see `Claims`).
  public var claimed: Int64

  public init(_ figures: ChannelFigures, owner: String, claimed: Int64) {
    self.figures = figures
    self.owner = owner
    self.claimed = claimed
  }

  /// Members in the documented order.
  public var json: JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("count", .integer(Int64(figures.count))), ("label", .string(figures.label)), ("dot", .bool(figures.dot)),
      ("muted", .bool(figures.muted)), ("unseen", .integer(Int64(figures.unseen))),
    ]
    if let total = figures.total { members.append(("total", .integer(total))) }
    members += [
      ("seq", .integer(Int64(clamping: figures.seq))), ("owner", .string(owner)),
      ("pulse", .integer(Int64(figures.pulseMs))),
      ("claimed", .integer(claimed)),
    ]
    return .object(members)
  }

  public var payload: [UInt8] { Array(json.encoded.utf8) }

  /// Decodes an owner's state strictly: every member of its type and range, a label a state
  /// line could carry. Members a later version adds are ignored, so older mirrors keep
  /// reading newer owners.
  public init(payload: some Collection<UInt8>) throws(PayloadError) {
    let reader = try PayloadReader(payload)
    let count = Int(try reader.required("count", in: .counts))
    let unseen = Int(try reader.required("unseen", in: .counts))
    guard unseen <= count else { throw PayloadError("'unseen' is above 'count'") }
    let label = try reader.requiredString("label", maxBytes: MeshLimits.maxLabelBytes)
    guard label.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) })
    else { throw PayloadError("'label' holds a blank or a control character") }
    let dot = try reader.requiredBool("dot")
    let muted = try reader.requiredBool("muted")
    let total = try reader.integer("total", in: 0...Int64(Limits.maxTotal))
    if let total, total < Int64(count) { throw PayloadError("'total' is below 'count'") }
    let seq = UInt64(try reader.required("seq", in: .nonNegative))
    owner = try reader.host("owner")
    let pulseMs = Int(try reader.integer("pulse", in: 0...Int64(Limits.pulseMs.upperBound)) ?? 0)
    claimed = try reader.required("claimed", in: 1...Int64.max)
    figures = ChannelFigures(
      count: count, label: label, dot: dot, muted: muted, unseen: unseen, total: total, seq: seq, pulseMs: pulseMs)
  }
}
