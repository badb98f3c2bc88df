/// States refused for what they are rather than for what they say: published on a host's
/// subtree in another host's name, claimed at a time no machine could have, or on the old
/// layout. Each topic's first refusal is a notice, the user's to act on (a forged or
/// misconfigured machine, a bridge to upgrade); its repeats, and any refusal once `maxTopics`
/// topics have been named, are debug lines, so that a broker's junk cannot flood the journal
/// nor make this set grow without bound.
struct StateRefusals {
  static let maxTopics = MeshLimits.maxChannels

  private var said: Set<String> = []

  /// Logs why the state on `topic` was refused: once as a notice, then at debug.
  mutating func refuse(_ topic: String, _ reason: String, into outbox: inout MeshOutbox) {
    let first = said.count < StateRefusals.maxTopics && said.insert(topic).inserted
    outbox.log(first ? .notice : .debug, "Refused the state on \(topic.truncated(toUTF8: 200)): \(reason).")
  }
}
