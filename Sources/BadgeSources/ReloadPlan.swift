import BadgeCore

/// What a reload changes: the running config against the new one, both whole and accepted
/// (a refused file changes nothing, and never gets here).
///
/// A source whose spec is the same but for where it stands in the file is kept untouched (no
/// recount); one whose spec changed is restarted (stopped, then started with a recount); one
/// the new file lacks is stopped, and every channel it named outright, or a restarted source
/// no longer names, is set to 0 and released. A template's channels are the running source's
/// to release, as only it knows which folders it found.
public struct ReloadPlan: Equatable, Sendable {
  /// Sources in both files, unchanged, in the new file's order.
  public var kept: [String] = []
  /// Sources in both files, changed.
  public var restarted: [String] = []
  /// Sources only the new file has.
  public var started: [String] = []
  /// Sources only the old file had, in its order.
  public var stopped: [String] = []
  /// Fixed channels no source of the new file names outright, to set to 0 and release.
  public var released: [ChannelName] = []

  public init(old: SourcesConfig, new: SourcesConfig) {
    for source in new.sources {
      guard let before = old.source(named: source.name) else {
        started.append(source.name)
        continue
      }
      if ReloadPlan.sameSpec(before, source) {
        kept.append(source.name)
      } else {
        restarted.append(source.name)
      }
    }
    stopped = old.sources.map(\.name).filter { new.source(named: $0) == nil }
    let named = Set(new.sources.flatMap(\.fixedChannels))
    released = old.sources.flatMap(\.fixedChannels).filter { !named.contains($0) }
  }

  /// Whether two specs differ only in their lines.
  static func sameSpec(_ a: SourceSpec, _ b: SourceSpec) -> Bool {
    var a = a
    a.line = b.line
    a.lines = b.lines
    return a == b
  }
}
