/// The two folders of a Maildir where messages live (`tmp/` holds none yet).
public enum MaildirPlace: String, Hashable, Sendable, CaseIterable {
  /// Delivered and not yet seen by any client.
  case new
  /// Seen by a client; its flags say whether it was read.
  case cur
}

/// A message's file name in a Maildir, as bytes (the file system's, which need not be UTF-8).
///
/// `<unique>[:2,<flags>]`: the unique part is the message's identity, which a flag change (a
/// rename inside `cur/`) and the move from `new/` to `cur/` keep; the flags are letters in
/// ASCII order (`D`raft, `F`lagged, `P`assed, `R`eplied, `S`een, `T`rashed, and dovecot's
/// keywords `a`-`z`). The choices the design left open, made here:
/// - The info starts at the first `:`, the separator on Linux (mbsync's and dovecot's
///   default); a name with no `:` has no info.
/// - Info other than `2,…` (the old experimental `1,…`) holds no flags: the message is unread.
/// - A name starting with `.` is no message (dovecot's and mbsync's own files), nor is an empty
///   one.
public struct MaildirName: Hashable, Sendable, CustomStringConvertible {
  /// The whole name.
  public let bytes: [UInt8]

  /// `nil` for names that are no message: empty, or starting with `.`.
  public init?(_ bytes: [UInt8]) {
    guard let first = bytes.first, first != UInt8(ascii: ".") else { return nil }
    self.bytes = bytes
  }

  public var description: String { String(decoding: bytes, as: UTF8.self) }

  private var colon: Int? { bytes.firstIndex(of: UInt8(ascii: ":")) }

  /// The identity: the bytes before the info.
  public var unique: [UInt8] { Array(bytes[..<(colon ?? bytes.count)]) }

  /// The flag letters of `:2,<flags>`; `nil` when the name has no such info.
  public var flags: [UInt8]? {
    guard let colon else { return nil }
    let info = bytes[(colon + 1)...]
    guard info.starts(with: MaildirName.flagsMark) else { return nil }
    return Array(info.dropFirst(MaildirName.flagsMark.count))
  }

  static let flagsMark = Array("2,".utf8)

  /// Whether the message counts as unread in `place`: in `new/` always (mbsync writes names
  /// with info there too), in `cur/` without `S` (seen) and without `T` (trashed, to be
  /// expunged).
  public func isUnread(in place: MaildirPlace) -> Bool {
    guard place == .cur, let flags else { return true }
    return !flags.contains(UInt8(ascii: "S")) && !flags.contains(UInt8(ascii: "T"))
  }

  /// Where the message goes once marked read from `place`: always into `cur/`, its flags
  /// gaining `S` in ASCII order (`:2,FR` → `:2,FRS`; no info → `:2,S`; info without flags
  /// replaced by `:2,S`). `nil` when there is nothing to do: already read in `cur/`.
  public func markedRead(from place: MaildirPlace) -> MaildirName? {
    guard isUnread(in: place) || place == .new else { return nil }
    var flags = self.flags ?? []
    if !flags.contains(UInt8(ascii: "S")) {
      flags.insert(UInt8(ascii: "S"), at: flags.firstIndex(where: { $0 > UInt8(ascii: "S") }) ?? flags.count)
    }
    return MaildirName(unique + [UInt8(ascii: ":")] + MaildirName.flagsMark + flags)
  }
}
