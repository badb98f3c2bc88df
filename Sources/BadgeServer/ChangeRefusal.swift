import BadgeCore
import BadgeLog
import BadgeProtocol

/// Why a change was not made.
public enum ChangeRefusal: Error, CustomStringConvertible {
  /// Changes cannot be saved now (`StorageFailurePolicy`); the error is the reply.
  case notSaved(ProtocolError)
  /// The store refused the mutation.
  case refused(Store.MutationError)

  /// The refusal in the log's words: what a bridge's refused change is told with.
  public var description: String { worded(about: nil).message }

  /// The `ERR` reply to a request of `command` on `channel` that was refused.
  func reply(to command: Request.Command, on channel: ChannelName) -> ProtocolError {
    let words = worded(about: (command, channel))
    return ProtocolError(words.code, words.message)
  }

  /// What a bridge's refused change is counted under in the log: one reason per bridge and
  /// kind of refusal, so that an app that keeps sending costs a line and a count per interval,
  /// not a line per signal, and nothing is kept per channel it named.
  public func warningReason(_ bridge: String) -> RepeatedWarnings.Reason {
    RepeatedWarnings.Reason("\(bridge): \(worded(about: nil).kind)")
  }

  /// A write to a mirrored channel refused for want of room in the outbox (all of it, or one
  /// owner's): forwarded `to` whom, and how many `waiting` there already.
  private static func outboxFull(
    _ request: (command: Request.Command, channel: ChannelName)?, to destination: String, waiting: String,
    kind: String
  ) -> Wording {
    let message = request.map {
      "\($0.command.word) of '\($0.channel)' would be forwarded to \(destination), and \(waiting); nothing changed"
    }
    return Wording(.full, message ?? waiting, kind: kind)
  }

  /// How a refusal is worded, all of it in one place: the reply's code, its message (about a
  /// request, naming its command and channel; else the log's short words), and the kind a
  /// repeated warning counts it under.
  private func worded(about request: (command: Request.Command, channel: ChannelName)?) -> Wording {
    let largest = Limits.maxCount
    switch self {
    case .notSaved(let error):
      return Wording(error.code, error.message, kind: "changes not saved")
    case .refused(.countOutOfRange(let current)):
      let message = request.map {
        "\($0.command.word) would take '\($0.channel)' (now \(current)) past the largest count, \(largest)"
      }
      return Wording(
        .outOfRange, message ?? "the count would pass the largest count, \(largest)", kind: "counts past \(largest)")
    case .refused(.full(let limit)):
      let message = request.map {
        "\($0.command.word) would add channel '\($0.channel)' to the \(limit.value) kept already (\(limit.key)); "
          + "clear one first"
      }
      return Wording(
        .full, message ?? "\(limit.value) channels are kept already (\(limit.key))", kind: "channels past \(limit.key)")
    case .refused(.outboxFull(let capacity)):
      return Self.outboxFull(
        request, to: "its owner", waiting: "\(capacity) writes wait for their owners already",
        kind: "writes to mirrored channels past the outbox")
    case .refused(.ownerOutboxFull(let owner, let capacity)):
      return Self.outboxFull(
        request, to: owner, waiting: "\(capacity) writes wait for \(owner) already (the outbox's room for one owner)",
        kind: "writes to mirrored channels past their owner's room")
    case .refused(.mirrored(let owner)):
      let message = request.map { "'\($0.channel)' is owned by \(owner); configure it there" }
      return Wording(.mirrored, message ?? "the channel is owned by \(owner)", kind: "mirrored channels")
    case .refused(.sourced(let source)):
      let message = request.map { "'\($0.channel)' is counted by source '\(source)'; CLEAR and SEEN work" }
      return Wording(.sourced, message ?? "the channel is counted by source '\(source)'", kind: "sourced channels")
    case .refused(.claimed(let source)):
      let message = request.map { "'\($0.channel)' is claimed by source '\(source)'" }
      return Wording(.claimed, message ?? "the channel is claimed by source '\(source)'", kind: "claimed channels")
    case .refused(.local):
      let message = request.map {
        "'\($0.channel)' is a channel of this machine (a count or a setting here); it hides the remote one"
      }
      return Wording(.localChannel, message ?? "the channel is local", kind: "mirrored channels")
    }
  }

  /// A refusal's words: see `worded(about:)`.
  private struct Wording {
    let code: ProtocolError.Code
    let message: String
    let kind: String

    init(_ code: ProtocolError.Code, _ message: String, kind: String) {
      self.code = code
      self.message = message
      self.kind = kind
    }
  }
}
