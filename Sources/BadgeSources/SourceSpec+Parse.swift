import BadgeConfig
import BadgeCore
import BadgeHooks

extension SourceSpec {
  /// One `[source.NAME]` section's entries (in file order) read into a source.
  ///
  /// `kind` is read first, as it says which keys the others may be; without a kind, or with one
  /// that is not known, that is the section's only fault. Otherwise every entry is checked and
  /// the first fault in file order thrown: an unknown key, a key of another kind (named), a bad
  /// value, then the rules between keys (placed at the later key) and missing keys (placed at
  /// the section's first line).
  ///
  /// - Throws: `ConfigError` (`file:line: reason`).
  static func parse(name: String, _ entries: [ConfigEntry], file: String) throws(ConfigError) -> SourceSpec {
    let first = entries[0].line
    let section = SourcesConfig.sectionPrefix + name
    func fault(_ line: Int, _ reason: String) -> ConfigError { ConfigError(file: file, line: line, reason: reason) }
    guard SourcesConfig.isSourceName(name) else {
      throw fault(first, "Invalid source name '\(name)' in [\(section)]; \(SourcesConfig.namingRule)")
    }
    guard let kindEntry = entries.last(where: { $0.key == "kind" }) else {
      let kinds = SourceKind.allCases.map(\.rawValue)
      throw fault(
        first,
        "[\(section)] has no kind; write kind = \(kinds.dropLast().joined(separator: ", ")) or \(kinds.last!)")
    }
    guard let kind = SourceKind(rawValue: kindEntry.value) else {
      throw fault(
        kindEntry.line,
        "Unknown kind '\(kindEntry.value)' in [\(section)]; expected one of "
          + SourceKind.allCases.map(\.rawValue).joined(separator: ", "))
    }

    var reader = SectionReader(name: name, kind: kind)
    var faults: [ConfigError] = []
    for entry in entries {
      let expected = "expected one of " + SourcesConfig.keys(of: kind).joined(separator: ", ")
      guard reader.accepts(entry.key) else {
        if let owner = SourceKind.allCases.first(where: { $0.keys.contains(entry.key) || $0.takesQuery(entry.key) }) {
          faults.append(
            fault(
              entry.line,
              "Key '\(entry.key)' in [\(section)] is for \(owner.rawValue) sources, not \(kind.rawValue) ones; \(expected)"
            ))
        } else {
          faults.append(fault(entry.line, "Unknown key '\(entry.key)' in [\(section)]; \(expected)"))
        }
        continue
      }
      reader.lines[entry.key] = entry.line
      do throws(SettingKey.InvalidValue) {
        try reader.read(entry.key, entry.value)
      } catch {
        faults.append(fault(entry.line, "Invalid value '\(entry.value)' for \(entry.key): \(error.reason)"))
      }
    }
    faults += reader.faultsTogether().map { fault($0.line, $0.reason) }
    if let missing = reader.missing() { faults.append(fault(first, "[\(section)] \(missing)")) }
    if let fault = faults.min(by: { $0.line < $1.line }) { throw fault }
    var spec = reader.spec(line: first)
    spec.lines = reader.lines
    return spec
  }
}

extension SourcesConfig {
  /// The keys a kind's section accepts, for messages: every kind's, then its own.
  static func keys(of kind: SourceKind) -> [String] {
    SourceKind.commonKeys + kind.keys + (kind == .notmuch ? ["query.<suffix>"] : [])
  }
}

extension SourceKind {
  /// Whether `key` is a `query.<suffix>` this kind takes.
  func takesQuery(_ key: String) -> Bool { self == .notmuch && key.hasPrefix(SectionReader.queryPrefix) }
}

/// The values of one section as its entries are read, before the rules between them.
struct SectionReader {
  let name: String
  let kind: SourceKind
  var lines: [String: Int] = [:]
  var channelText: String?
  var onClear = OnClear.seen
  var coalesceMs = SourceSpec.defaultCoalesceMs
  var path: String?
  var folders: [ByteGlob]?
  var database: String?
  var profile: String?
  var query: String?
  var suffixed: [(suffix: String, query: String)] = []
  var exclude = true
  var command: HookCommand?
  var intervalSeconds: Int?
  var follow = false
  var timeoutSeconds: Int?
  var match: [ByteGlob]?
  var recursive = false
  var hidden = false
  var imap = ImapKeys()

  static let queryPrefix = "query."

  typealias Invalid = SettingKey.InvalidValue

  func accepts(_ key: String) -> Bool {
    SourceKind.commonKeys.contains(key) || kind.keys.contains(key) || kind.takesQuery(key)
  }

  /// Reads one accepted key's value.
  mutating func read(_ key: String, _ value: String) throws(Invalid) {
    if kind == .imap && kind.keys.contains(key) { return try imap.read(key, value) }
    switch key {
    case "kind": return
    case "channel": try readChannel(value)
    case "on_clear":
      onClear = try SettingKey.word(value)
      if onClear == .markRead && !kind.canMarkRead {
        throw Invalid(reason: "\(kind.article) \(kind.rawValue) source has nothing to mark read; expected 'seen'")
      }
    case "coalesce_ms": coalesceMs = try SettingKey.integer(value, in: SourceSpec.coalesceRange)
    case "path": path = try SectionReader.path(value)
    case "database": database = try SectionReader.path(value)
    case "folders":
      guard let globs = ByteGlob.list(value) else {
        throw Invalid(reason: "expected folder names or globs separated by spaces or commas")
      }
      folders = globs
    case "match":
      guard let globs = ByteGlob.list(value) else {
        throw Invalid(reason: "expected globs separated by spaces or commas")
      }
      if let glob = globs.first(where: { $0.bytes.contains(UInt8(ascii: "/")) }) {
        throw Invalid(reason: "'\(glob)' holds a /; match globs are matched against a file's own name")
      }
      match = globs
    case "profile":
      guard !value.isEmpty, value.utf8.count <= 64, !value.contains("/") else {
        throw Invalid(reason: "expected a profile name: 1-64 characters, no /")
      }
      profile = value
    case "query": query = try SectionReader.query(value)
    case "exclude": exclude = try SettingKey.boolean(value)
    case "command": command = try SectionReader.command(value)
    case "interval_s": intervalSeconds = try SettingKey.integer(value, in: ExecSettings.intervalRange)
    case "follow": follow = try SettingKey.boolean(value)
    case "timeout_s": timeoutSeconds = try SettingKey.integer(value, in: ExecSettings.timeoutRange)
    case "recursive": recursive = try SettingKey.boolean(value)
    case "hidden": hidden = try SettingKey.boolean(value)
    default:
      let suffix = String(key.dropFirst(SectionReader.queryPrefix.count))
      let query = try SectionReader.query(value)
      suffixed.removeAll { $0.suffix == suffix }
      suffixed.append((suffix, query))
    }
  }

  private mutating func readChannel(_ value: String) throws(Invalid) {
    if ChannelTemplate.isTemplate(value) {
      guard kind.hasFolders else {
        throw Invalid(reason: "only a maildir or an imap source makes a channel per folder")
      }
      do throws(ChannelTemplate.Invalid) {
        _ = try ChannelTemplate(value)
      } catch {
        throw Invalid(reason: error.reason)
      }
    } else if ChannelName(value) == nil {
      throw Invalid(reason: ChannelName.namingRule)
    }
    channelText = value
  }

  /// A command's words, split as hooks are (no shell); at least a program.
  static func command(_ value: String) throws(Invalid) -> HookCommand {
    let command: HookCommand
    do throws(HookCommand.SplitError) {
      command = try HookCommand(value)
    } catch {
      throw Invalid(reason: error.reason)
    }
    guard !command.words.isEmpty else { throw Invalid(reason: "expected a command") }
    return command
  }

  static func path(_ value: String) throws(Invalid) -> String {
    guard value.hasPrefix("/") || value.hasPrefix("~/"), !value.utf8.contains(0) else {
      throw Invalid(reason: "expected an absolute path or one starting with ~/")
    }
    return value
  }

  static func query(_ value: String) throws(Invalid) -> String {
    guard !value.allSatisfy(\.isWhitespace) else { throw Invalid(reason: "expected a notmuch query") }
    return value
  }

  /// The rules between keys, each placed at the later of its two lines.
  func faultsTogether() -> [(line: Int, reason: String)] {
    let channel = channelText ?? name
    let queries: [(line: Int, reason: String)] = suffixed.compactMap { suffix, _ in
      let key = SectionReader.queryPrefix + suffix
      guard !suffix.isEmpty else {
        return (lines[key]!, "Invalid key '\(key)' in [\(SourcesConfig.sectionPrefix)\(name)]: its suffix is empty")
      }
      guard ChannelName("\(channel):\(suffix)") == nil else { return nil }
      return (
        lines[key]!,
        "Invalid key '\(key)' in [\(SourcesConfig.sectionPrefix)\(name)]: its channel '\(channel):\(suffix)' "
          + "is no channel name (\(ChannelName.namingRule))"
      )
    }
    if kind == .imap { return imap.faultsTogether(lines: lines, section: SourcesConfig.sectionPrefix + name) }
    guard kind == .exec, follow, let followLine = lines["follow"] else { return queries }
    return ["interval_s", "timeout_s"].compactMap { key in
      guard let line = lines[key] else { return nil }
      return (
        max(line, followLine),
        "'\(key)' and 'follow = yes' cannot go together (lines \(min(line, followLine)) and "
          + "\(max(line, followLine))): a followed command keeps running and prints a count a line"
      )
    }
  }

  /// What the section lacks, following its name: a required key, or a channel when its name
  /// cannot be one.
  func missing() -> String? {
    if let key = kind.requiredKeys.first(where: { lines[$0] == nil }) {
      return "has no \(key); \(kind.article) \(kind.rawValue) source needs one"
    }
    if kind == .imap, let missing = imap.missing(lines: lines) { return missing }
    guard channelText != nil || ChannelName(name) != nil else {
      return "names no channel and its name is none (\(ChannelName.namingRule)); write channel = …"
    }
    return nil
  }

  /// The source, once every entry was accepted and nothing is `missing()`.
  func spec(line: Int) -> SourceSpec {
    let channelText = self.channelText ?? name
    let channel: SourceChannel
    if ChannelTemplate.isTemplate(channelText), let template = try? ChannelTemplate(channelText) {
      channel = .template(template)
    } else {
      channel = .fixed(ChannelName(channelText)!)
    }
    let settings: SourceSettings
    switch kind {
    case .maildir:
      var maildir = MaildirSettings(path: path!)
      if let folders { maildir.folders = folders }
      settings = .maildir(maildir)
    case .files:
      var files = FilesSettings(path: path!)
      if let match { files.match = match }
      files.recursive = recursive
      files.hidden = hidden
      settings = .files(files)
    case .exec:
      var exec = ExecSettings(command: command!)
      exec.schedule = follow ? .follow : .interval(seconds: intervalSeconds ?? ExecSettings.defaultIntervalSeconds)
      exec.timeoutSeconds = timeoutSeconds
      settings = .exec(exec)
    case .notmuch:
      var notmuch = NotmuchSettings()
      notmuch.database = database
      notmuch.profile = profile
      notmuch.exclude = exclude
      let fixed = ChannelName(channelText)!
      if query != nil || suffixed.isEmpty {
        notmuch.queries.append(NotmuchQuery(suffix: nil, query: query ?? NotmuchSettings.defaultQuery, channel: fixed))
      }
      for (suffix, query) in suffixed {
        notmuch.queries.append(NotmuchQuery(suffix: suffix, query: query, channel: ChannelName("\(fixed):\(suffix)")!))
      }
      settings = .notmuch(notmuch)
    case .imap:
      settings = .imap(imap.settings())
    }
    var spec = SourceSpec(name: name, settings: settings, channel: channel, line: line)
    spec.onClear = onClear
    spec.coalesceMs = coalesceMs
    return spec
  }
}

extension SourceKind {
  /// `a` or `an`, for messages.
  var article: String { self == .exec || self == .imap ? "an" : "a" }
}
