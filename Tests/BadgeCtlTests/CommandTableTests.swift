import Testing

@testable import BadgeCtl

/// The table of commands that help, completions and the scanner share, and the command types
/// it is made of.
@Suite struct CommandTableTests {
  /// One good line for each command, in the table's order. Reading one checks (in a debug
  /// build) that the command reads every option its spec declares.
  static let lines: [(String, [String], any Subcommand.Type)] = [
    ("incr", ["mail"], IncrCommand.self), ("decr", ["mail"], DecrCommand.self),
    ("set", ["mail", "1"], SetCommand.self),
    ("clear", ["--all"], ClearCommand.self), ("open", ["app:org.example.App"], OpenCommand.self),
    ("get", ["mail"], GetCommand.self), ("list", [], ListCommand.self), ("mute", ["mail"], MuteCommand.self),
    ("unmute", ["mail"], UnmuteCommand.self), ("configure", ["mail", "step=5"], ConfigureCommand.self),
    ("seen", ["mail"], SeenCommand.self), ("pulse", ["mail"], PulseCommand.self), ("dnd", ["on"], DNDCommand.self),
    ("watch", [], WatchCommand.self), ("stats", [], StatsCommand.self), ("top", [], TopCommand.self),
    ("reload", [], ReloadCommand.self), ("ping", [], PingCommand.self), ("mqtt", [], MQTTCommand.self),
    ("sources", [], SourcesCommand.self), ("web", ["tokens"], WebCommand.self), ("help", [], HelpCommand.self),
  ]

  @Test func everyCommandIsInTheTableInHelpsOrder() {
    #expect(CommandSpec.all.map(\.name) == Self.lines.map(\.0))
    #expect(Subcommands.all.map { $0.spec.name } == Self.lines.map(\.0))
    for (name, arguments, type) in Self.lines {
      #expect(parse([name] + arguments, as: type) != nil, "\(name)")
      #expect(Subcommands.named(name).map(ObjectIdentifier.init) == ObjectIdentifier(type), "\(name)")
    }
    #expect(Subcommands.named("frob") == nil)
  }

  @Test func noCommandDeclaresAnOptionTwice() {
    for spec in CommandSpec.all {
      let names = (spec.options + CommandSpec.globalOptions).map(\.name)
      #expect(Set(names).count == names.count, "\(spec.name): \(names)")
    }
  }

  @Test func choicesInTheTableAreTheValuesTheOptionTakes() {
    let choices = CommandSpec.all.flatMap { spec in
      spec.options.filter { !$0.choices.isEmpty }.map { "\(spec.name) \($0.name): \($0.choices)" }
    }
    #expect(choices.count == 16)
    #expect(choices.contains(#"get --format: ["plain", "json"]"#))
    #expect(choices.contains(#"stats --period: ["day", "week", "month", "year"]"#))
    #expect(choices.contains(#"stats --format: ["term", "json", "plain"]"#))
    #expect(
      choices.contains(
        #"watch --format: ["term", "waybar", "polybar", "i3blocks", "tmux", "eww", "json", "yambar", "plain", "frames"]"#
      ))
  }

  @Test func aCommandsHelpIsMadeFromItsSpec() {
    #expect(
      HelpText.command(IncrCommand.spec) == """
        OVERVIEW: Add to a channel's count.

        Adds N (default 1) and starts the channel's pulse window. Prints the new state.

        USAGE: badgectl incr <channel> [<n>] [--format <format>] [--id <id>]

        ARGUMENTS:
          <channel>               A channel name: 1-64 characters from A-Z a-z 0-9 . _ -
                                  : starting with a letter or digit.
          <n>                     How many to add, 1-2147483647. (default: 1)

        OPTIONS:
          --format <format>       plain (one line per channel) or json (one object per
                                  line). (default: plain)
          --id <id>               An id for the request, 1-64 characters from A-Z a-z
                                  0-9 . _ : -. Sent again with the same id (a retry), it
                                  changes nothing and prints the state as it is.
          --socket <path>         The daemon's socket. (default: $BADGED_SOCKET, else
                                  $XDG_RUNTIME_DIR/badged/badged.sock)
          -h, --help              Show help information.

        """)
    for spec in CommandSpec.all {
      #expect(HelpText.usage(spec) == Usage.lines[spec.name], "\(spec.name)")
    }
  }
}
