import BadgeCore

/// `<channel> | --all`: one channel, or every channel.
enum ChannelTarget: Equatable {
  case channel(ChannelName)
  case all

  /// The word a request names it by: the channel's name, or `*` for every channel.
  var word: String {
    switch self {
    case .channel(let name): return name.description
    case .all: return ChannelPattern.all.description
    }
  }
}

/// What sets `clear` and `seen` apart: their entries in the table, their `--all` flags (each
/// with its own help) and their requests' words.
protocol ChannelOrAllVerb: Sendable {
  static var spec: CommandSpec { get }
  static var allFlag: Flag { get }
  /// The request's command word: `CLEAR` or `SEEN`.
  static var verb: String { get }
}

extension ChannelOrAllVerb {
  static func channelOrAllSpec(name: String, abstract: String, discussion: String) -> CommandSpec {
    CommandSpec(
      name: name, abstract: abstract, discussion: discussion, usage: "<channel> | --all",
      arguments: [CommandSpec.channelArgument], options: [allFlag, CommandSpec.formatOption], positionals: 0...1)
  }
}

/// `badgectl clear|seen <channel> | --all`: one channel or, with `--all`, every channel.
struct ChannelOrAllCommand<Verb: ChannelOrAllVerb>: RequestCommand {
  static var spec: CommandSpec { Verb.spec }

  let target: ChannelTarget
  let format: SnapshotFormat

  init(_ arguments: inout CommandArguments) throws(UsageError) {
    if arguments.flag(Verb.allFlag) {
      guard !arguments.hasMore else { throw arguments.usageError("Give a channel or --all, not both") }
      target = .all
    } else {
      guard let name = try arguments.next(.channel) else {
        throw arguments.usageError("Missing expected argument '<channel>' (or --all)")
      }
      target = .channel(name)
    }
    format = try arguments.value(CommandSpec.formatOption) ?? .plain
  }

  var request: [String] { [Verb.verb, target.word] }
}

typealias ClearCommand = ChannelOrAllCommand<ClearVerb>
typealias SeenCommand = ChannelOrAllCommand<SeenVerb>

/// `badgectl clear <channel> | --all`
enum ClearVerb: ChannelOrAllVerb {
  static let allFlag = Flag("--all", help: "Clear every channel.")
  static let spec = channelOrAllSpec(
    name: "clear", abstract: "Set a channel's count, or every count, to 0.",
    discussion: "Prints the state of each channel it cleared.")
  static let verb = "CLEAR"
}

/// `badgectl seen <channel> | --all`
enum SeenVerb: ChannelOrAllVerb {
  static let allFlag = Flag("--all", help: "Mark every channel seen.")
  static let spec = channelOrAllSpec(
    name: "seen", abstract: "Mark a channel's unread items, or all, as seen.",
    discussion: """
      Sets the channel's unseen items to 0 and keeps its count; later increases count as new
      again. A channel with badge=unseen then shows the quiet dot until something new arrives.
      Prints the state of each channel it changed.
      """)
  static let verb = "SEEN"
}
