import BadgeCore
import BadgeProtocol

/// What `incr` and `decr` take: a channel, how many to add or take, the reply's format and the
/// request's id.
struct CountStepArguments: Equatable {
  let channel: ChannelName
  let amount: Int
  let format: SnapshotFormat
  let id: String?

  init(_ arguments: inout CommandArguments) throws(UsageError) {
    channel = try arguments.required(.channel)
    amount = try arguments.next(.number(1...Limits.maxCount)) ?? 1
    format = try arguments.value(CommandSpec.formatOption) ?? .plain
    id = try arguments.value(CommandSpec.idOption)
  }
}

/// `incr` and `decr`: the same arguments, another request.
///
/// They are two plain types rather than one generic type: a generic type's metadata is made at
/// run time, from its mangled name, which a one-shot command would pay for at every start.
protocol CountStepCommand: RequestCommand {
  /// The write of an amount: `incr` or `decr`.
  static func step(_ amount: Int) -> ChannelWrite
  var arguments: CountStepArguments { get }
  init(arguments: CountStepArguments)
}

extension CountStepCommand {
  /// The spec of a step: `<channel> [<n>]`, where `<n>` says `how` many, 1 unless given.
  static func stepSpec(name: String, abstract: String, discussion: String, how: String) -> CommandSpec {
    CommandSpec(
      name: name, abstract: abstract, discussion: discussion, usage: "<channel> [<n>]",
      arguments: [
        CommandSpec.channelArgument,
        CommandSpec.Argument(name: "<n>", kind: .number, help: "\(how), 1-\(Limits.maxCount). (default: 1)"),
      ],
      options: [CommandSpec.formatOption, CommandSpec.idOption], positionals: 1...2)
  }

  init(_ arguments: inout CommandArguments) throws(UsageError) {
    self.init(arguments: try CountStepArguments(&arguments))
  }

  var format: SnapshotFormat { arguments.format }
  var request: Request { .write(arguments.channel, Self.step(arguments.amount)) }
  var id: String? { arguments.id }
}

/// `badgectl incr <channel> [<n>]`
struct IncrCommand: CountStepCommand {
  static let spec = stepSpec(
    name: "incr", abstract: "Add to a channel's count.",
    discussion: "Adds N (default 1) and starts the channel's pulse window. Prints the new state.",
    how: "How many to add")
  static func step(_ amount: Int) -> ChannelWrite { .incr(amount) }
  let arguments: CountStepArguments
}

/// `badgectl decr <channel> [<n>]`
struct DecrCommand: CountStepCommand {
  static let spec = stepSpec(
    name: "decr", abstract: "Take from a channel's count.",
    discussion: "Subtracts N (default 1); the count stops at 0. Prints the new state.",
    how: "How many to take")
  static func step(_ amount: Int) -> ChannelWrite { .decr(amount) }
  let arguments: CountStepArguments
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
    options: [CommandSpec.formatOption, CommandSpec.idOption], positionals: 2...2)

  let channel: ChannelName
  let count: Int
  let format: SnapshotFormat
  let id: String?

  init(_ arguments: inout CommandArguments) throws(UsageError) {
    channel = try arguments.required(.channel)
    count = try arguments.required(.number(0...Limits.maxCount))
    format = try arguments.value(CommandSpec.formatOption) ?? .plain
    id = try arguments.value(CommandSpec.idOption)
  }

  var request: Request { .write(channel, .set(count)) }
}
