import BadgeCore
import BadgeProtocol

/// `<channel> | --all`: one channel, or every channel.
enum ChannelTarget: Equatable {
  case channel(ChannelName)
  case all
}

/// What `clear` and `seen` take: one channel or, with `--all`, every channel; for one channel
/// the running total to clear (or mark seen) up to; the reply's format and the request's id.
struct ChannelOrAllArguments: Equatable {
  let target: ChannelTarget
  /// `--upto`: only the items up to this running total (`nil`: every item).
  let upTo: Int?
  let format: SnapshotFormat
  let id: String?

  /// - Parameter all: the command's `--all`.
  init(_ arguments: inout CommandArguments, all: Flag) throws(UsageError) {
    if arguments.flag(all) {
      guard !arguments.hasMore else { throw arguments.usageError("Give a channel or --all, not both") }
      target = .all
    } else {
      guard let name = try arguments.next(.channel) else {
        throw arguments.usageError("Missing expected argument '<channel>' (or --all)")
      }
      target = .channel(name)
    }
    upTo = try arguments.value(CommandSpec.upToOption)
    if upTo != nil && target == .all {
      throw arguments.usageError("--upto takes one channel, not --all: each channel has its own total")
    }
    format = try arguments.value(CommandSpec.formatOption) ?? .plain
    id = try arguments.value(CommandSpec.idOption)
  }
}

/// `clear` and `seen`: the same arguments, another request (two plain types, not one generic
/// type, for the reason `CountStepCommand` gives).
protocol ChannelOrAllCommand: RequestCommand {
  /// The command's `--all`, with its own help.
  static var allFlag: Flag { get }
  /// The write to one channel, up to a running total or of every item: `clear` or `seen`.
  static func write(upTo total: Int?) -> ChannelWrite
  /// The request for every channel: `CLEAR *` or `SEEN *`.
  static var all: Request { get }
  var arguments: ChannelOrAllArguments { get }
  init(arguments: ChannelOrAllArguments)
}

extension ChannelOrAllCommand {
  static func channelOrAllSpec(name: String, abstract: String, discussion: String) -> CommandSpec {
    CommandSpec(
      name: name, abstract: abstract, discussion: discussion, usage: "<channel> [--upto <total>] | --all",
      arguments: [CommandSpec.channelArgument],
      options: [allFlag, CommandSpec.upToOption, CommandSpec.formatOption, CommandSpec.idOption],
      positionals: 0...1)
  }

  init(_ arguments: inout CommandArguments) throws(UsageError) {
    self.init(arguments: try ChannelOrAllArguments(&arguments, all: Self.allFlag))
  }

  var format: SnapshotFormat { arguments.format }
  var request: Request {
    switch arguments.target {
    case .channel(let name): return .write(name, Self.write(upTo: arguments.upTo))
    case .all: return Self.all
    }
  }
  var id: String? { arguments.id }
}

/// `badgectl clear <channel> | --all`
struct ClearCommand: ChannelOrAllCommand {
  static let allFlag = Flag("--all", help: "Clear every channel.")
  static let spec = channelOrAllSpec(
    name: "clear", abstract: "Set a channel's count, or every count, to 0.",
    discussion: """
      Prints the state of each channel it cleared. With --upto, clears only the items up to
      that running total (the total a script read from the channel's state), so items that
      arrived after it stay.
      """)
  static func write(upTo total: Int?) -> ChannelWrite { .clear(upTo: total) }
  static let all = Request.clearAll
  let arguments: ChannelOrAllArguments
}

/// `badgectl seen <channel> | --all`
struct SeenCommand: ChannelOrAllCommand {
  static let allFlag = Flag("--all", help: "Mark every channel seen.")
  static let spec = channelOrAllSpec(
    name: "seen", abstract: "Mark a channel's unread items, or all, as seen.",
    discussion: """
      Sets the channel's unseen items to 0 and keeps its count; later increases count as new
      again. A channel with badge=unseen then shows the quiet dot until something new arrives.
      With --upto, only the items up to that running total are seen. Prints the state of each
      channel it changed.
      """)
  static func write(upTo total: Int?) -> ChannelWrite { .seen(upTo: total) }
  static let all = Request.seenAll
  let arguments: ChannelOrAllArguments
}
