import BadgeCore
import BadgeLog
import BadgeProtocol
import Testing

@testable import BadgeServer

/// A refused change, worded in one place for everyone who tells of it: the `ERR` reply to the
/// request (exact, as clients and docs/PROTOCOL.md have it), the log's words for a bridge's
/// refused change, and the reason its repeated warnings count it under.
@Suite struct ChangeRefusalTests {
  static let failed = ProtocolError(.failed, "Changes cannot be saved: disk full")
  static let limit = ChannelLimit(10_000, key: "[limits] max_channels")

  @Test(
    arguments: [
      (
        ChangeRefusal.notSaved(failed), failed, "Changes cannot be saved: disk full", "bus: changes not saved"
      ),
      (
        .refused(.countOutOfRange(current: 7)),
        ProtocolError(.outOfRange, "INCR would take 'ci' (now 7) past the largest count, 2147483647"),
        "the count would pass the largest count, 2147483647", "bus: counts past 2147483647"
      ),
      (
        .refused(.full(limit)),
        ProtocolError(
          .full, "INCR would add channel 'ci' to the 10000 kept already ([limits] max_channels); clear one first"),
        "10000 channels are kept already ([limits] max_channels)", "bus: channels past [limits] max_channels"
      ),
      (
        .refused(.outboxFull(capacity: 10_000)),
        ProtocolError(
          .full,
          "INCR of 'ci' would be forwarded to its owner, and 10000 writes wait for their owners already; nothing changed"
        ),
        "10000 writes wait for their owners already", "bus: writes to mirrored channels past the outbox"
      ),
      (
        .refused(.mirrored(owner: "desk")), ProtocolError(.mirrored, "'ci' is owned by desk; configure it there"),
        "the channel is owned by desk", "bus: mirrored channels"
      ),
      (
        .refused(.local),
        ProtocolError(
          .localChannel, "'ci' is a channel of this machine (a count or a setting here); it hides the remote one"),
        "the channel is local", "bus: mirrored channels"
      ),
    ] as [(ChangeRefusal, ProtocolError, String, String)])
  func aRefusalIsWordedOnce(_ refusal: ChangeRefusal, _ reply: ProtocolError, _ logged: String, _ reason: String) {
    #expect(refusal.reply(to: .incr, on: name("ci")) == reply)
    #expect(refusal.description == logged)
    #expect(refusal.warningReason("bus") == RepeatedWarnings.Reason(reason))
  }
}
