import BadgeCore

/// One running source of any kind, and the inputs each kind takes; an input a kind has no use
/// for is nothing to it.
enum RunningSource {
  case maildir(MaildirSource)
  case exec(ExecSource)
  case files(FilesSource)
  case notmuch(NotmuchSource)
  case imap(ImapSource)

  /// The source a spec describes; `nil` for a spec no kind takes (a template on a kind that
  /// has no folders, which the config refuses).
  init?(_ spec: SourceSpec, home: [UInt8]) {
    switch (spec.settings, spec.channel) {
    case (.maildir(let settings), let channel):
      self = .maildir(MaildirSource(name: spec.name, settings: settings, channel: channel, home: home))
    case (.exec(let settings), .fixed(let channel)):
      self = .exec(ExecSource(name: spec.name, settings: settings, channel: channel))
    case (.notmuch(let settings), .fixed):
      self = .notmuch(NotmuchSource(name: spec.name, settings: settings))
    case (.files(let settings), .fixed(let channel)):
      self = .files(FilesSource(name: spec.name, settings: settings, channel: channel, home: home))
    case (.imap(let settings), let channel):
      self = .imap(ImapSource(name: spec.name, settings: settings, channel: channel, home: home))
    default:
      return nil
    }
  }

  mutating func recount(at time: SourceTime, into turn: inout SourceTurn) {
    switch self {
    case .maildir(var source):
      source.recount(into: &turn)
      self = .maildir(source)
    case .exec(var source):
      source.recount(at: time, into: &turn)
      self = .exec(source)
    case .files(var source):
      source.recount(into: &turn)
      self = .files(source)
    case .notmuch(var source):
      source.recount(into: &turn)
      self = .notmuch(source)
    case .imap(var source):
      source.recount(into: &turn)
      self = .imap(source)
    }
  }

  mutating func events(_ events: [FSEvent], into turn: inout SourceTurn) {
    switch self {
    case .maildir(var source):
      for event in events { source.event(event, into: &turn) }
      self = .maildir(source)
    case .files(var source):
      for event in events { source.event(event, into: &turn) }
      self = .files(source)
    case .notmuch(var source):
      for event in events { source.event(event, into: &turn) }
      self = .notmuch(source)
    case .exec, .imap:
      break
    }
  }

  mutating func listed(_ tag: WatchTag, _ result: Result<[ListedName], ListingFailure>, into turn: inout SourceTurn) {
    switch self {
    case .maildir(var source):
      source.listed(tag, result, into: &turn)
      self = .maildir(source)
    case .files(var source):
      source.listed(tag, result, into: &turn)
      self = .files(source)
    case .exec, .notmuch, .imap:
      break
    }
  }

  mutating func exec(_ result: ExecResult, at time: SourceTime, into turn: inout SourceTurn) {
    guard case .exec(var source) = self else { return }
    source.result(result, at: time, into: &turn)
    self = .exec(source)
  }

  mutating func notmuch(_ result: NotmuchResult, at time: SourceTime, into turn: inout SourceTurn) {
    guard case .notmuch(var source) = self else { return }
    source.result(result, at: time, into: &turn)
    self = .notmuch(source)
  }

  mutating func imap(_ event: ImapEvent, at time: SourceTime, into turn: inout SourceTurn) {
    guard case .imap(var source) = self else { return }
    source.event(event, at: time, into: &turn)
    self = .imap(source)
  }

  mutating func tick(at time: SourceTime, into turn: inout SourceTurn) {
    switch self {
    case .exec(var source):
      source.tick(at: time, into: &turn)
      self = .exec(source)
    case .notmuch(var source):
      source.tick(at: time, into: &turn)
      self = .notmuch(source)
    case .maildir, .files, .imap:
      break
    }
  }

  /// Marks `items` read, for kinds that can.
  mutating func markRead(_ items: [ListedItem], into turn: inout SourceTurn) {
    switch self {
    case .maildir(let source):
      turn.actions += source.markRead(items)
    case .notmuch(var source):
      source.markRead(items, into: &turn)
      self = .notmuch(source)
    case .imap(let source):
      turn.actions += source.markRead(items)
    case .exec, .files:
      break
    }
  }
}
