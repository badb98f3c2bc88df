import BadgeConfig
import BadgeCore

/// The feedback hooks of saved changes (the daemon's `HookRunner`): asked for only once the
/// turn that made the change is saved.
public protocol ChangeHooks: AnyObject {
  /// Whether any channel has a hook; when none does, count changes are not even kept for it.
  var hasHooks: Bool { get }
  /// A saved change moved `channel`'s count from `previous`.
  func countChanged(_ channel: Channel, from previous: Int)
  /// `channel`'s pulse window ended by time.
  func pulseEnded(_ channel: Channel)
}

/// Sees every published event of an exported channel (one whose settings give an `export`),
/// whether anyone watches or not: the LauncherEntry export announces them from here.
public protocol EventObserver: AnyObject {
  func published(_ channel: Channel)
}

/// Carries out `RELOAD`: the daemon's one reload, shared with SIGHUP.
public protocol ConfigReloading: AnyObject {
  /// - Throws: `ConfigError` (`file:line: reason`) when the file is refused; nothing changed.
  func reload() throws(ConfigError)
}

/// The daemon's sockets, as the end of a turn needs them.
public protocol ClientTransport<Client>: AnyObject {
  associatedtype Client: Peer
  /// The turn `client` depended on was undone: it goes, without its replies.
  func close(_ client: Client)
  /// Sends the turn's output, draining `queue` (`SendQueue.drain`).
  func send(_ queue: SendQueue<Client>)
}
