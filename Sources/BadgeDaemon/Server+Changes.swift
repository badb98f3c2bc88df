import BadgeCore
import BadgeSystem

/// Changes that no client asked for: the bus bridges apply them here, through the same store
/// calls, change log and events as requests, so persistence and watchers cannot tell them apart.
extension Server {
  /// Why a change was not made.
  enum ChangeRefusal: Error, CustomStringConvertible {
    /// The change log cannot record changes (see `persistenceFailure`).
    case notSaved(SystemError)
    /// The store refused the mutation.
    case refused(Store.MutationError)

    var description: String {
      switch self {
      case .notSaved(let error): return "changes are refused until the state can be saved again: \(error)"
      case .refused(let error): return "\(error)"
      }
    }
  }

  /// Applies `mutation` to `name`; when something changed it is recorded and pushed.
  @discardableResult
  func applyChange(_ mutation: Store.Mutation, to name: ChannelName, by client: Client? = nil) throws(ChangeRefusal) -> Store.Outcome {
    if let persistenceFailure { throw .notSaved(persistenceFailure) }
    let outcome: Store.Outcome
    do throws(Store.MutationError) {
      outcome = try store.apply(mutation, to: name, now: loop.now)
    } catch {
      throw .refused(error)
    }
    if outcome.changed { changed(outcome.channel, by: client) }
    return outcome
  }

  /// Starts or extends the channel's pulse window without changing its count
  /// (`Store.pulse`), and pushes the new window to watchers. Returns the channel when the
  /// window moved.
  @discardableResult
  func pulse(_ name: ChannelName) -> Channel? {
    guard let channel = store.pulse(name, now: loop.now) else { return nil }
    push(channel)
    return channel
  }
}
