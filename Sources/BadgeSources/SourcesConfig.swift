import BadgeConfig
import BadgeCore
import BadgeHooks

/// The `[source.NAME]` sections of badged.conf, validated: what badged-sources counts and into
/// which channels.
///
/// The daemon skips these sections, as it skips `[mqtt]`; badged-sources skips every other
/// section, which the daemon validates.
public struct SourcesConfig: Equatable, Sendable {
  /// The sources in the order the file first names them.
  public var sources: [SourceSpec] = []
  /// The file the sections were read from, for messages about them later.
  public var file: String
  /// `[daemon] hooks_max_running`: the most exec sources' interval runs under way at once, as
  /// for the daemon's hooks.
  public var maxRunning = DaemonConfig.defaultHooksMaxRunning
  /// `[daemon] hook_timeout_ms`: how long an exec source's interval run may take when its
  /// section gives no `timeout_s`, as for the daemon's hooks.
  public var hookTimeoutMs = DaemonConfig().hookTimeoutMs

  public init(file: String = "badged.conf") { self.file = file }

  /// What a section's name starts with: `[source.mail]`.
  public static let sectionPrefix = "source."
  /// The most sources a config may hold (each holds inotify watches and a connection's claims).
  public static let maxSources = 256
  /// The rule of NAME in `[source.NAME]`, as messages state it.
  public static let namingRule = "names are 1-64 characters from A-Z a-z 0-9 . _ -"

  /// The source named `name`.
  public func source(named name: String) -> SourceSpec? { sources.first { $0.name == name } }

  /// Whether `name` can name a source: 1-64 bytes from `A-Z a-z 0-9 . _ -`.
  public static func isSourceName(_ name: some StringProtocol) -> Bool {
    let bytes = Array(name.utf8)
    return (1...64).contains(bytes.count)
      && bytes.allSatisfy { ChannelName.isNameByte($0) && $0 != UInt8(ascii: ":") }
  }
}

/// One `[source.NAME]` section, validated.
public struct SourceSpec: Equatable, Sendable {
  /// NAME.
  public var name: String
  /// The kind and its own keys.
  public var settings: SourceSettings
  /// `channel`: the one channel the source counts into, or the template of a family.
  public var channel: SourceChannel
  /// `on_clear`: what a click on the channel does at the source.
  public var onClear: OnClear = .seen
  /// `coalesce_ms`: after a write, the least time before the channel's next.
  public var coalesceMs = SourceSpec.defaultCoalesceMs
  /// The line of the section's first key.
  public var line: Int
  /// The line of each key given, for messages about them later.
  public var lines: [String: Int] = [:]

  public init(name: String, settings: SourceSettings, channel: SourceChannel, line: Int) {
    self.name = name
    self.settings = settings
    self.channel = channel
    self.line = line
  }

  public static let defaultCoalesceMs = 50
  /// `coalesce_ms`'s range: none to ten seconds.
  public static let coalesceRange = 0...10_000

  public var kind: SourceKind { settings.kind }

  /// Every channel the source names outright: its channel, and a notmuch source's
  /// `<channel>:<suffix>` for each `query.<suffix>`; none for a template's family.
  public var fixedChannels: [ChannelName] {
    switch (channel, settings) {
    case (.template, _): return []
    case (.fixed, .notmuch(let notmuch)): return notmuch.queries.map(\.channel)
    case (.fixed(let name), _): return [name]
    }
  }

  /// The line a message about `key` points at: the key's own, else the section's first.
  public func line(of key: String) -> Int { lines[key] ?? line }
}

/// What a source counts.
public enum SourceKind: String, CaseIterable, Sendable {
  case maildir
  case notmuch
  case exec
  case files
  case imap

  /// The keys this kind accepts besides those every kind does; a notmuch source also takes
  /// `query.<suffix>`.
  public var keys: [String] {
    switch self {
    case .maildir: return ["path", "folders"]
    case .notmuch: return ["database", "profile", "query", "exclude"]
    case .exec: return ["command", "interval_s", "follow", "timeout_s"]
    case .files: return ["path", "match", "recursive", "hidden"]
    case .imap:
      return ["server", "username"] + ImapSettings.credentialKeys + [
        "oauth2_mechanism", "folders", "ca_file", "max_connections",
      ]
    }
  }

  /// The keys every kind accepts.
  public static let commonKeys = ["kind", "channel", "on_clear", "coalesce_ms"]

  /// The keys that must be given.
  public var requiredKeys: [String] {
    switch self {
    case .maildir, .files: return ["path"]
    case .exec: return ["command"]
    case .notmuch: return []
    case .imap: return ["server", "username"]
    }
  }

  /// Whether a click can mark items read at this kind of source.
  public var canMarkRead: Bool { self == .maildir || self == .notmuch || self == .imap }

  /// Whether a `{folder}` template can make this kind's channels, one per folder.
  public var hasFolders: Bool { self == .maildir || self == .imap }
}

/// `channel`: one channel, or (maildir and imap) a template making one per folder.
public enum SourceChannel: Equatable, Sendable {
  case fixed(ChannelName)
  case template(ChannelTemplate)
}

/// `on_clear`: a click only acknowledges what the badge showed (`seen`), or also marks those
/// items read where they live (`mark-read`, maildir, notmuch and imap).
public enum OnClear: String, CaseIterable, Sendable {
  case seen
  case markRead = "mark-read"
}

/// Each kind's own settings.
public enum SourceSettings: Equatable, Sendable {
  case maildir(MaildirSettings)
  case notmuch(NotmuchSettings)
  case exec(ExecSettings)
  case files(FilesSettings)
  case imap(ImapSettings)

  public var kind: SourceKind {
    switch self {
    case .maildir: return .maildir
    case .notmuch: return .notmuch
    case .exec: return .exec
    case .files: return .files
    case .imap: return .imap
    }
  }
}

/// `kind = maildir`.
public struct MaildirSettings: Equatable, Sendable {
  /// `path`: the Maildir++ root or single Maildir, absolute or `~/…` as written.
  public var path: String
  /// `folders`: which folders count (`MaildirLayout`'s names); `INBOX` is the root of a single
  /// Maildir, else the root's own `new/` and `cur/` (Maildir++'s INBOX) or its `INBOX` folder.
  public var folders: [ByteGlob] = [ByteGlob("INBOX")]

  public init(path: String) { self.path = path }
}

/// `kind = notmuch`.
public struct NotmuchSettings: Equatable, Sendable {
  /// `database`: the database's folder; `nil` for notmuch's own lookup.
  public var database: String?
  /// `profile`: notmuch's profile (`NOTMUCH_PROFILE`).
  public var profile: String?
  /// The queries and the channel each counts into, `query` first, then each `query.<suffix>` in
  /// file order. `query` alone defaults to `defaultQuery`; once a `query.<suffix>` is given and
  /// `query` is not, the source counts only the suffixed ones.
  public var queries: [NotmuchQuery] = []
  /// `exclude`: whether the config's `search.exclude_tags` are left out, as `notmuch count`
  /// does (yes by default, as there).
  public var exclude = true

  public init() {}

  public static let defaultQuery = "tag:unread and tag:inbox"
}

/// One notmuch query and its channel.
public struct NotmuchQuery: Equatable, Sendable {
  /// The suffix of `query.<suffix>`; `nil` for `query`.
  public var suffix: String?
  public var query: String
  public var channel: ChannelName

  public init(suffix: String?, query: String, channel: ChannelName) {
    self.suffix = suffix
    self.query = query
    self.channel = channel
  }
}

/// `kind = exec`.
public struct ExecSettings: Equatable, Sendable {
  /// `command`: split as hooks are, no shell.
  public var command: HookCommand
  /// `interval_s` or `follow = yes`.
  public var schedule: Schedule = .interval(seconds: ExecSettings.defaultIntervalSeconds)
  /// `timeout_s`: how long a run may take; `nil` for `[daemon] hook_timeout_ms`.
  public var timeoutSeconds: Int?

  public init(command: HookCommand) { self.command = command }

  public enum Schedule: Equatable, Sendable {
    /// Run at start, on resume, then every so many seconds; the last non-empty line counts.
    case interval(seconds: Int)
    /// One long-running command printing a count a line, restarted when it exits.
    case follow
  }

  public static let defaultIntervalSeconds = 60
  /// `interval_s`: a second to a day.
  public static let intervalRange = 1...86_400
  /// `timeout_s`: a second to an hour.
  public static let timeoutRange = 1...3600
}

/// `kind = files`.
public struct FilesSettings: Equatable, Sendable {
  /// `path`: the folder, absolute or `~/…` as written.
  public var path: String
  /// `match`: globs over a file's own name (not its path).
  public var match: [ByteGlob] = [ByteGlob("*")]
  /// `recursive`: whether subfolders count too (to `maxDepth`).
  public var recursive = false
  /// `hidden`: whether dot-names count.
  public var hidden = false

  public init(path: String) { self.path = path }

  /// How deep `recursive` goes below `path`.
  public static let maxDepth = 8
}
