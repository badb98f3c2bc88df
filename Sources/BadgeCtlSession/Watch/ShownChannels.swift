/// Which channels a watcher shows, so that it shows a bounded number of them: at most `limit`,
/// whatever the daemon (or whatever listens on the socket) sends.
///
/// A channel is current once the connection in use has reported it (listed it in its snapshot
/// or sent an event for it). A channel shown from before a reconnection that the new connection
/// has not reported is earlier: the daemon may have forgotten it, and it gives way when a new
/// channel needs room. Only when every channel shown is current is a new one refused; the first
/// refusal of each connection is reported, so a watcher says it once per connection.
struct ShownChannels {
  /// How many channels a watcher shows at most: the daemon's default `max_channels`, so a
  /// daemon at its defaults never reaches it.
  static let limit = 10_000

  /// What `admit` decided for a channel that arrived.
  enum Admission: Equatable {
    /// Show it: it is shown already, or there is room.
    case shown
    /// Show it in the place of this earlier channel, which is no longer shown.
    case replacing(String)
    /// Do not show it; `first` for the connection's first refusal.
    case refused(first: Bool)
  }

  let limit: Int
  /// Reported by the connection in use.
  private var current: Set<String> = []
  /// Shown from before the connection in use and not reported by it since.
  private var earlier: Set<String> = []
  /// Whether the connection in use has had a channel refused.
  private var refusedAny = false

  init(limit: Int = ShownChannels.limit) {
    self.limit = limit
  }

  /// How many channels are shown.
  var count: Int { current.count + earlier.count }

  /// A state or event for `name` arrived on the connection in use: whether it is shown.
  mutating func admit(_ name: String) -> Admission {
    if current.contains(name) { return .shown }
    if earlier.remove(name) != nil || count < limit {
      current.insert(name)
      return .shown
    }
    if let old = earlier.popFirst() {
      current.insert(name)
      return .replacing(old)
    }
    defer { refusedAny = true }
    return .refused(first: !refusedAny)
  }

  /// The connection ended: every channel shown is one from before the next connection.
  mutating func connectionEnded() {
    earlier.formUnion(current)
    current = []
    refusedAny = false
  }
}
