/// A request's id (`id=<token>`) as the daemon keeps it: a hash of the token, and a fingerprint
/// of the request it came with, so that a later request with the same token is recognised as
/// the same request retried, or refused as another request reusing the id.
///
/// The token itself is not kept: 24 bytes stand for up to 64, in memory, in the journal and in
/// the snapshot alike. The token's hash is FNV-1a with 128 bits, so that two tokens of one
/// table share a hash only by a chance far below any hardware fault's; the fingerprint is
/// FNV-1a with 64 bits of the request's canonical form (`Request.fingerprint`), which only has
/// to tell apart the requests given one token. Both are written to disk, so they are fixed:
/// another hash would make the ids of older files unknown.
public struct RequestID: Hashable, Sendable, CustomStringConvertible {
  /// The token's hash, high and low halves.
  public let high: UInt64
  public let low: UInt64
  /// The fingerprint of the request the token came with.
  public let fingerprint: UInt64

  /// The longest token, in bytes.
  public static let maxTokenLength = 64

  /// The rule, as error messages state it (the daemon's and the CLI's alike).
  public static let tokenRule = "ids are 1-64 characters from A-Z a-z 0-9 . _ : -"

  public init(high: UInt64, low: UInt64, fingerprint: UInt64) {
    self.high = high
    self.low = low
    self.fingerprint = fingerprint
  }

  /// The id of `token` given with a request of `fingerprint`; `nil` when the token breaks the
  /// rule.
  public init?(token: UnsafeRawBufferPointer, fingerprint: UInt64) {
    guard RequestID.isValidToken(token) else { return nil }
    let hash = RequestID.tokenHash(token)
    self.init(
      high: UInt64(truncatingIfNeeded: hash >> 64), low: UInt64(truncatingIfNeeded: hash), fingerprint: fingerprint)
  }

  /// The id of `token` given as text; `nil` when it breaks the rule.
  public init?(token: String, fingerprint: UInt64) {
    var token = token
    guard let id = token.withUTF8({ RequestID(token: UnsafeRawBufferPointer($0), fingerprint: fingerprint) }) else {
      return nil
    }
    self = id
  }

  /// Whether `bytes` form a valid token: 1 to 64 bytes from `A-Z a-z 0-9 . _ : -` (a channel
  /// name's bytes, in any order), so that an id never splits a request line or needs quoting.
  public static func isValidToken(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard !bytes.isEmpty, bytes.count <= maxTokenLength else { return false }
    for byte in bytes where !ChannelName.isNameByte(byte) { return false }
    return true
  }

  /// Whether `text` is a valid token.
  public static func isValidToken(_ text: String) -> Bool {
    RequestID(token: text, fingerprint: 0) != nil
  }

  /// Whether `other` has the same token, whatever its request.
  @inline(__always)
  public func sameToken(as other: RequestID) -> Bool {
    high == other.high && low == other.low
  }

  /// FNV-1a with 128 bits (offset basis 0x6c62272e07bb014262b821756295c58d, prime
  /// 2^88 + 0x13b) of `bytes`.
  static func tokenHash(_ bytes: UnsafeRawBufferPointer) -> UInt128 {
    var hash: UInt128 = 0x6C62_272E_07BB_0142_62B8_2175_6295_C58D
    for byte in bytes {
      hash ^= UInt128(byte)
      hash = hash &* 0x0000_0000_0100_0000_0000_0000_0000_013B
    }
    return hash
  }

  public var description: String { "id \(high):\(low) of request \(fingerprint)" }
}

/// A request id with the sequence number it was saved under when no change carried it
/// (`Store.saveID`): a journal's record of it is skipped when the snapshot covers that number,
/// as a change's record is.
public struct SavedRequestID: Equatable, Sendable {
  public var seq: UInt64
  public var id: RequestID

  public init(seq: UInt64, id: RequestID) {
    self.seq = seq
    self.id = id
  }
}

/// FNV-1a with 64 bits (offset basis 0xcbf29ce484222325, prime 0x100000001b3), fed in pieces:
/// the fingerprint of a request's canonical form.
public struct Fingerprint: Sendable {
  @usableFromInline var hash: UInt64 = 0xCBF2_9CE4_8422_2325

  public init() {}

  /// The fingerprint of what was added so far.
  public var value: UInt64 { hash }

  @inlinable
  public mutating func add(_ bytes: UnsafeRawBufferPointer) {
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01B3
    }
  }
}
