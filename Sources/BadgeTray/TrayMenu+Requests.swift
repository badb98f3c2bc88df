import BadgeCore
import BadgeProtocol

extension TrayMenu.Action {
  /// The requests to badged that carry out the action, in order; none for `open`, which the
  /// program carries out with `badgectl open --upto` (the app raised, then its channel cleared
  /// up to the total shown).
  public var requests: [Request] {
    switch self {
    case .open: return []
    case .clear(let targets): return targets.map { .write($0.channel, .clear(upTo: $0.upTo)) }
    case .dnd(let on): return [.dnd(on ? .on(ms: nil) : .off)]
    case .step(let channel, let by): return [.write(channel, by < 0 ? .decr(-by) : .incr(by))]
    }
  }
}
