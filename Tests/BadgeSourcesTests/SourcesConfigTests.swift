import BadgeConfig
import BadgeCore
import BadgeHooks
import BadgeSources
import Testing

/// `SourcesConfig.parse`: every key of every kind read, and their defaults (the refusals are
/// `SourcesConfigRefusalTests`').
@Suite struct SourcesConfigTests {
  @Test func otherSectionsAreNotOurs() throws {
    let config = try sources(
      """
      [daemon]
      pulse_ms = not ours to check
      [mqtt]
      broker = mqtts://broker.lan
      [source]
      kind = nothing
      """)
    #expect(config.sources.isEmpty)
  }

  @Test func aMaildirWithItsDefaults() throws {
    let config = try sources(
      """
      [daemon]
      sync = always
      [source.mail]
      kind = maildir
      path = ~/Mail
      """)
    let mail = try #require(config.source(named: "mail"))
    #expect(mail.kind == .maildir)
    #expect(mail.settings == .maildir(MaildirSettings(path: "~/Mail")))
    #expect(mail.channel == .fixed(ChannelName("mail")!))
    #expect(mail.onClear == .seen)
    #expect(mail.coalesceMs == 50)
    #expect(mail.line == 4)
    #expect(mail.lines == ["kind": 4, "path": 5])
    #expect(mail.fixedChannels == [ChannelName("mail")!])
  }

  @Test func everyMaildirKey() throws {
    let config = try sources(
      """
      [source.mail]
      kind = maildir
      path = /home/ana/Mail
      folders = INBOX, Lists/* Work
      channel = mail:{folder}
      on_clear = mark-read
      coalesce_ms = 0
      """)
    let mail = try #require(config.source(named: "mail"))
    var settings = MaildirSettings(path: "/home/ana/Mail")
    settings.folders = [ByteGlob("INBOX"), ByteGlob("Lists/*"), ByteGlob("Work")]
    #expect(mail.settings == .maildir(settings))
    #expect(mail.channel == .template(try ChannelTemplate("mail:{folder}")))
    #expect(mail.fixedChannels.isEmpty)
    #expect(mail.onClear == .markRead)
    #expect(mail.coalesceMs == 0)
  }

  @Test func aNotmuchWithItsDefaults() throws {
    let config = try sources("[source.mail]\nkind = notmuch")
    let mail = try #require(config.source(named: "mail"))
    var settings = NotmuchSettings()
    settings.queries = [NotmuchQuery(suffix: nil, query: "tag:unread and tag:inbox", channel: ChannelName("mail")!)]
    #expect(mail.settings == .notmuch(settings))
    #expect(settings.exclude && settings.database == nil && settings.profile == nil)
  }

  @Test func everyNotmuchKey() throws {
    let config = try sources(
      """
      [source.nm]
      kind = notmuch
      database = ~/.mail
      profile = work
      query = tag:unread
      query.lists = tag:unread and tag:lists
      channel = mail
      query.ci = tag:ci
      exclude = no
      on_clear = mark-read
      """)
    let nm = try #require(config.source(named: "nm"))
    var settings = NotmuchSettings()
    settings.database = "~/.mail"
    settings.profile = "work"
    settings.exclude = false
    settings.queries = [
      NotmuchQuery(suffix: nil, query: "tag:unread", channel: ChannelName("mail")!),
      NotmuchQuery(suffix: "lists", query: "tag:unread and tag:lists", channel: ChannelName("mail:lists")!),
      NotmuchQuery(suffix: "ci", query: "tag:ci", channel: ChannelName("mail:ci")!),
    ]
    #expect(nm.settings == .notmuch(settings))
    #expect(nm.fixedChannels.map(\.description) == ["mail", "mail:lists", "mail:ci"])
  }

  @Test func suffixedQueriesAloneLeaveOutTheDefault() throws {
    let config = try sources("[source.nm]\nkind = notmuch\nquery.a = tag:a\nquery.a = tag:b")
    #expect(config.sources[0].fixedChannels.map(\.description) == ["nm:a"])
    guard case .notmuch(let settings) = config.sources[0].settings else {
      Issue.record("not notmuch")
      return
    }
    #expect(settings.queries.map(\.query) == ["tag:b"])
  }

  @Test func everyExecKey() throws {
    let config = try sources(
      """
      [source.updates]
      kind = exec
      command = sh -c 'apt-get -s upgrade | grep -c "^Inst "'
      interval_s = 3600
      timeout_s = 30
      coalesce_ms = 10000
      [source.todo]
      kind = exec
      command = todo-follow ~/todo.txt
      follow = yes
      """)
    var updates = ExecSettings(command: try HookCommand("sh -c 'apt-get -s upgrade | grep -c \"^Inst \"'"))
    updates.schedule = .interval(seconds: 3600)
    updates.timeoutSeconds = 30
    #expect(config.sources[0].settings == .exec(updates))
    #expect(updates.command.words == ["sh", "-c", "apt-get -s upgrade | grep -c \"^Inst \""])
    #expect(config.sources[0].coalesceMs == 10000)
    var todo = ExecSettings(command: try HookCommand("todo-follow ~/todo.txt"))
    todo.schedule = .follow
    #expect(config.sources[1].settings == .exec(todo))
    let plain = try sources("[source.x]\nkind = exec\ncommand = true\nfollow = no")
    guard case .exec(let exec) = plain.sources[0].settings else {
      Issue.record("not exec")
      return
    }
    #expect(exec.schedule == .interval(seconds: 60) && exec.timeoutSeconds == nil)
  }

  /// An exec run without `timeout_s` takes `[daemon] hook_timeout_ms` of the same file; a value
  /// the daemon refuses (its own section, its own error) leaves the daemon's default.
  @Test func theHookTimeoutComesFromTheDaemonSection() throws {
    let exec = "[source.x]\nkind = exec\ncommand = true\n"
    #expect(try sources(exec).hookTimeoutMs == 10_000)
    #expect(try sources("[daemon]\nhook_timeout_ms = 2500\n" + exec).hookTimeoutMs == 2500)
    #expect(try sources("[daemon]\nhook_timeout_ms = 0\n" + exec).hookTimeoutMs == 10_000)
    #expect(try sources("[daemon]\nhook_timeout_ms = soon\n" + exec).hookTimeoutMs == 10_000)
    #expect(try sources("[daemon]\nhook_timeout_ms = 3600001\n" + exec).hookTimeoutMs == 10_000)
  }

  @Test func everyFilesKey() throws {
    let config = try sources(
      """
      [source.downloads]
      kind = files
      path = ~/Downloads
      match = *.part *.crdownload
      recursive = yes
      hidden = on
      channel = dl
      """)
    var files = FilesSettings(path: "~/Downloads")
    files.match = [ByteGlob("*.part"), ByteGlob("*.crdownload")]
    files.recursive = true
    files.hidden = true
    #expect(config.sources[0].settings == .files(files))
    #expect(config.sources[0].channel == .fixed(ChannelName("dl")!))
    let plain = try sources("[source.q]\nkind = files\npath = /var/spool/q")
    #expect(plain.sources[0].settings == .files(FilesSettings(path: "/var/spool/q")))
  }

  @Test func aSectionNamedTwiceIsOne() throws {
    let config = try sources("[source.a]\nkind = exec\n[source.b]\nkind = files\npath = /b\n[source.a]\ncommand = true")
    #expect(config.sources.map(\.name) == ["a", "b"])
    #expect(config.sources[0].lines == ["kind": 2, "command": 7])
  }
}
