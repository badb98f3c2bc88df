import BadgeCore

/// A channel name from a literal the test knows to be valid.
func name(_ text: String) -> ChannelName {
  guard let name = ChannelName(text) else { fatalError("'\(text)' is not a valid channel name") }
  return name
}

/// The bytes the spec allows in a channel name: `A-Z a-z 0-9 . _ - :`.
let specNameBytes = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-:".utf8)

/// The bytes the spec allows first in a channel name: a letter or a digit.
let specFirstBytes = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

/// `Store.apply` that fails the test (instead of throwing) on a refused mutation.
@discardableResult
func apply(_ mutation: Store.Mutation, _ channel: String, on store: Store, at now: UInt64 = 0) -> Store.Outcome {
  do {
    return try store.apply(mutation, to: name(channel), now: now)
  } catch {
    fatalError("\(mutation) on '\(channel)' was refused: \(error)")
  }
}
