import BadgeCore

/// What sets `incr` and `decr` apart: their entries in the table and their requests' words.
protocol CountStep: Sendable {
  static var spec: CommandSpec { get }
  /// The request's command word: `INCR` or `DECR`.
  static var verb: String { get }
}

extension CountStep {
  /// The spec of a step: `<channel> [<n>]`, where `<n>` says `how` many, 1 unless given.
  static func stepSpec(name: String, abstract: String, discussion: String, how: String) -> CommandSpec {
    CommandSpec(
      name: name, abstract: abstract, discussion: discussion, usage: "<channel> [<n>]",
      arguments: [
        CommandSpec.channelArgument,
        CommandSpec.Argument(name: "<n>", kind: .number, help: "\(how), 1-\(Limits.maxCount). (default: 1)"),
      ],
      options: [CommandSpec.formatOption], positionals: 1...2)
  }
}

/// `badgectl incr|decr <channel> [<n>]`: a channel, and how many to add or take.
struct CountStepCommand<Step: CountStep>: RequestCommand {
  static var spec: CommandSpec { Step.spec }

  let channel: ChannelName
  let amount: Int
  let format: SnapshotFormat

  init(_ arguments: inout CommandArguments) throws(UsageError) {
    channel = try arguments.required(.channel)
    amount = try arguments.next(.number(1...Limits.maxCount)) ?? 1
    format = try arguments.value(CommandSpec.formatOption) ?? .plain
  }

  var request: [String] { [Step.verb, channel.description, String(amount)] }
}

typealias IncrCommand = CountStepCommand<Increment>
typealias DecrCommand = CountStepCommand<Decrement>

/// `badgectl incr <channel> [<n>]`
enum Increment: CountStep {
  static let spec = stepSpec(
    name: "incr", abstract: "Add to a channel's count.",
    discussion: "Adds N (default 1) and starts the channel's pulse window. Prints the new state.",
    how: "How many to add")
  static let verb = "INCR"
}

/// `badgectl decr <channel> [<n>]`
enum Decrement: CountStep {
  static let spec = stepSpec(
    name: "decr", abstract: "Take from a channel's count.",
    discussion: "Subtracts N (default 1); the count stops at 0. Prints the new state.",
    how: "How many to take")
  static let verb = "DECR"
}

/// `badgectl set <channel> <n>`
struct SetCommand: RequestCommand {
  static let spec = CommandSpec(
    name: "set", abstract: "Set a channel's count.",
    discussion: "Sets the count to N; a rise starts the pulse window. Prints the new state.",
    usage: "<channel> <n>",
    arguments: [
      CommandSpec.channelArgument,
      CommandSpec.Argument(name: "<n>", kind: .number, help: "The new count, 0-\(Limits.maxCount)."),
    ],
    options: [CommandSpec.formatOption], positionals: 2...2)

  let channel: ChannelName
  let count: Int
  let format: SnapshotFormat

  init(_ arguments: inout CommandArguments) throws(UsageError) {
    channel = try arguments.required(.channel)
    count = try arguments.required(.number(0...Limits.maxCount))
    format = try arguments.value(CommandSpec.formatOption) ?? .plain
  }

  var request: [String] { ["SET", channel.description, String(count)] }
}
