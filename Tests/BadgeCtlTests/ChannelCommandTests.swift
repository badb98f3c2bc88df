import BadgeCore
import Testing

@testable import BadgeCtl

/// `get`, `mute`, `unmute`, `clear`, `seen`, `configure`, `open`, `list`, `reload` and `ping`.
@Suite struct ChannelCommandTests {
  @Test func oneChannelCommands() {
    #expect(words(parse(["get", "mail"], as: GetCommand.self)) == ["GET", "mail"])
    #expect(parse(["get", "mail", "--format", "json"], as: GetCommand.self)?.format == .json)
    #expect(words(parse(["mute", "ci"], as: MuteCommand.self)) == ["MUTE", "ci"])
    #expect(words(parse(["unmute", "ci"], as: UnmuteCommand.self)) == ["UNMUTE", "ci"])
  }

  @Test func clearAndSeenTakeAChannelOrAll() throws {
    let mail = try #require(ChannelName("mail"))
    let one = parse(["clear", "mail"], as: ClearCommand.self)
    #expect(one?.arguments.target == .channel(mail) && words(one) == ["CLEAR", "mail"])
    let all = parse(["clear", "--all", "--format", "json"], as: ClearCommand.self)
    #expect(all?.arguments.target == .all && all?.format == .json && words(all) == ["CLEAR", "*"])
    #expect(words(parse(["seen", "mail"], as: SeenCommand.self)) == ["SEEN", "mail"])
    #expect(words(parse(["seen", "--all"], as: SeenCommand.self)) == ["SEEN", "*"])
    #expect(parse(["clear", "--all", "--all"], as: ClearCommand.self)?.arguments.target == .all)
  }

  /// The settings are read as the daemon reads them, and sent as its encoder writes them: each
  /// once, in the settings' order. One the daemon refuses is refused in its words, unsent.
  @Test func configurePassesItsSettingsOn() throws {
    let configure = parse(["configure", "ci", "style=dot", "max_label=9", "export=default"], as: ConfigureCommand.self)
    #expect(words(configure) == ["CONFIGURE", "ci", "max_label=9", "style=dot", "export=default"])
    let colour = try #require(parse(["configure", "mail", "colour=red"], as: ConfigureCommand.self))
    #expect(throws: CtlError.self) { try colour.request }
    do throws(CtlError) {
      _ = try colour.request
    } catch {
      #expect(
        error.message
          == "Error: Unknown setting 'colour'; expected one of max_label, style, pulse_ms, muted, badge, dnd, "
          + "step, export (bad-setting)\n"
      )
      #expect(error.exitStatus == 1)
    }
  }

  @Test func openKnowsTheAppBehindTheChannel() {
    let app = parse(["open", "app:org.telegram.desktop"], as: OpenCommand.self)
    #expect(app?.desktopID == "org.telegram.desktop" && words(app) == ["CLEAR", "app:org.telegram.desktop"])
    #expect(parse(["open", "notify:org.gnome.Geary", "--format", "json"], as: OpenCommand.self)?.format == .json)
  }

  @Test func commandsWithoutArguments() {
    #expect(words(parse(["list"], as: ListCommand.self)) == ["LIST"])
    #expect(parse(["list", "--format", "json"], as: ListCommand.self)?.format == .json)
    #expect(words(parse(["reload"], as: ReloadCommand.self)) == ["RELOAD"])
    #expect(words(parse(["ping"], as: PingCommand.self)) == ["PING"])
  }

  @Test(
    arguments: [
      (["get", "a/b"], "Invalid channel name 'a/b'; \(namingRule)", "get"),
      (["get"], "Missing expected argument '<channel>'", "get"),
      (["unmute", "-"], "Invalid channel name '-'; \(namingRule)", "unmute"),
      (["clear"], "Missing expected argument '<channel>' (or --all)", "clear"),
      (["seen"], "Missing expected argument '<channel>' (or --all)", "seen"),
      (["clear", "mail", "--all"], "Give a channel or --all, not both", "clear"),
      (["clear", "a/b", "--all"], "Give a channel or --all, not both", "clear"),
      (["seen", "--all", "mail"], "Give a channel or --all, not both", "seen"),
      (["clear", "a/b"], "Invalid channel name 'a/b'; \(namingRule)", "clear"),
      (["clear", "mail", "extra"], "Unexpected argument 'extra'", "clear"),
      (["configure", "mail", "style"], "Expected <key>=<value>, got 'style'", "configure"),
      (["configure", "mail", ""], "Expected <key>=<value>, got ''", "configure"),
      (["configure", "mail", "style=dot", "max_label"], "Expected <key>=<value>, got 'max_label'", "configure"),
      (["configure", "a/b", "style=dot"], "Invalid channel name 'a/b'; \(namingRule)", "configure"),
      // A blank or a control character would make a second request on the daemon's side.
      (
        ["configure", "mail", "style=dot max_label=9"],
        "Invalid argument 'style=dot max_label=9'; arguments hold no spaces or control characters", "configure"
      ),
      (
        ["configure", "mail", "style=count\nINCR\tinjected\t5"],
        "Invalid argument 'style=count\\nINCR\\tinjected\\t5'; arguments hold no spaces or control characters",
        "configure"
      ),
      (
        ["configure", "mail", "style=dot\u{7F}"],
        "Invalid argument 'style=dot\\u{7F}'; arguments hold no spaces or control characters", "configure"
      ),
      (["open", "mail"], "Only app: and notify: channels have an app to open, not 'mail'", "open"),
      (["open", "app:"], "Only app: and notify: channels have an app to open, not 'app:'", "open"),
      (["open", "ci:app:x"], "Only app: and notify: channels have an app to open, not 'ci:app:x'", "open"),
      (["open", "a/b"], "Invalid channel name 'a/b'; \(namingRule)", "open"),
      (["reload", "--format", "json"], "Unknown option '--format'", "reload"),
      (["ping", "--format", "json"], "Unknown option '--format'", "ping"),
    ] as [([String], String, String)])
  func badValuesAreRefused(words: [String], message: String, command: String) {
    #expect(refusal(words) == usageError(message, of: command))
  }
}
