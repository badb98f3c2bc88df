/// `badgectl help [<command>]`, `badgectl <command> --help` and `badgectl --help`: prints the
/// help of the tool or of one command.
struct HelpCommand: Subcommand {
  static let spec = CommandSpec(
    name: "help", abstract: "Show help for badgectl or one of its commands.", usage: "[<command>]",
    arguments: [CommandSpec.Argument(name: "<command>", kind: .command, help: "The command to explain.")],
    positionals: 0...1)

  /// The command to explain; `nil` for the tool.
  let topic: CommandSpec?

  init(topic: CommandSpec?) {
    self.topic = topic
  }

  init(_ arguments: inout CommandArguments) throws(UsageError) {
    topic = try arguments.next(.command)
  }

  func run(socket: String) {
    Output.write(topic.map(HelpText.command) ?? HelpText.tool())
  }
}
