import BadgeCore
import BadgeProtocol

/// The connection of the bridge to other machines (`badged-mqtt`), as the core knows it: at most
/// one at a time, which alone may put the owners' states here (`MIRROR`, `STALE`), take the
/// forward outbox (`FORWARDS`, `DELIVERED`) and set another machine's do-not-disturb; and the
/// state it last reported (`BRIDGE status`), which any client may ask for (`BRIDGE`).
final class BridgeLink<Client: Peer> {
  /// The bridge's connection, once it said `BRIDGE host=<host>`.
  private(set) var client: Client?
  /// The machine it is the bridge of.
  private(set) var host = ""
  /// What it last reported; `nil` until it does.
  private(set) var status: BridgeStatus?
  /// Set when the bridge's connection closed, until a turn has made every mirrored channel
  /// stale (`ServerCore.bridgeWentAway`).
  private(set) var wentAway = false

  /// Whether `peer` is the bridge.
  func isBridge(_ peer: Client) -> Bool { client === peer }

  /// `peer` becomes the bridge of `host`. Returns false when another connection is.
  func attach(_ peer: Client, host: String) -> Bool {
    guard client == nil || client === peer else { return false }
    client = peer
    self.host = host
    wentAway = false
    return true
  }

  func report(_ status: BridgeStatus) { self.status = status }

  /// `peer` closed: if it was the bridge, there is none now. Returns whether it was.
  func closed(_ peer: Client) -> Bool {
    guard client === peer else { return false }
    client = nil
    status = nil
    wentAway = true
    return true
  }

  /// The mirrored channels were made stale after the bridge went.
  func staleDone() { wentAway = false }
}
