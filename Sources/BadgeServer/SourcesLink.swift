import BadgeCore
import BadgeProtocol

/// The connection of the sources program (`badged-sources`), as the core knows it: at most one
/// at a time, which alone may claim channels for its sources, report their states and its
/// config; the channels whose clears it is handed (`on_clear=mark-read`, `CLEARED`); and what it
/// last reported, which any client may ask for (`SOURCES`).
///
/// The claims themselves are the store's (`Channel.source`); what is kept here lives as long
/// as the connection, since the program sends it all again on every connection.
final class SourcesLink<Client: Peer> {
  /// The sources connection, once it said `SOURCES attach`.
  private(set) var client: Client?
  /// The claimed channels whose source marks read what a clear up to a total covers.
  private(set) var markRead: Set<ChannelName> = []
  /// Each source's last report, in the order the sources first reported.
  private(set) var statuses: [SourceStatus] = []
  /// The program's last report of its config: the error, or `nil` once it read it well.
  private(set) var configError: String?
  /// Set when the sources connection closed, until a turn has made every claimed channel stale
  /// (`ServerCore.bridgeWentAway`).
  private(set) var wentAway = false

  /// Whether `peer` is the sources connection.
  func isSources(_ peer: Client) -> Bool { client === peer }

  /// `peer` becomes the sources connection. Returns false when another connection is.
  func attach(_ peer: Client) -> Bool {
    guard client == nil || client === peer else { return false }
    client = peer
    wentAway = false
    return true
  }

  /// A claim of `name`: its clears are handed over when `markRead`.
  func claimed(_ name: ChannelName, markRead: Bool) {
    if markRead { self.markRead.insert(name) } else { self.markRead.remove(name) }
  }

  func released(_ name: ChannelName) { markRead.remove(name) }

  /// Whether a clear of `name` up to a total is handed to its source.
  func handsOverClears(of name: ChannelName) -> Bool { markRead.contains(name) }

  /// Keeps `status` as its source's last report; returns the one before it.
  @discardableResult
  func report(_ status: SourceStatus) -> SourceStatus? {
    guard let i = statuses.firstIndex(where: { $0.name == status.name }) else {
      statuses.append(status)
      return nil
    }
    defer { statuses[i] = status }
    return statuses[i]
  }

  func reportConfig(error: String?) { configError = error }

  /// The program stopped running `source` (`SOURCE <name> stopped`): its report leaves the
  /// listing. Its channels were released one by one, as it let each go.
  func stopped(_ source: String) { statuses.removeAll { $0.name == source } }

  /// `peer` closed: if it was the sources connection, there is none now, and what it reported
  /// is gone with it. Returns whether it was.
  func closed(_ peer: Client) -> Bool {
    guard client === peer else { return false }
    client = nil
    markRead = []
    statuses = []
    configError = nil
    wentAway = true
    return true
  }

  /// The claimed channels were made stale after the sources connection went.
  func staleDone() { wentAway = false }
}
