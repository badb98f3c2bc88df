import BadgeCore
import BadgeProtocol

/// What `get`, `mute` and `unmute` take: a channel, and the reply's format.
struct OneChannelArguments: Equatable {
  let channel: ChannelName
  let format: SnapshotFormat

  init(_ arguments: inout CommandArguments) throws(UsageError) {
    channel = try arguments.required(.channel)
    format = try arguments.value(CommandSpec.formatOption) ?? .plain
  }
}

/// `get`, `mute` and `unmute`: the same arguments, another request (plain types, not one
/// generic type, for the reason `CountStepCommand` gives).
protocol OneChannelCommand: RequestCommand {
  /// The request of a channel: `GET`, `MUTE` or `UNMUTE`.
  static func request(_ channel: ChannelName) -> Request
  var arguments: OneChannelArguments { get }
  init(arguments: OneChannelArguments)
}

extension OneChannelCommand {
  static func oneChannelSpec(name: String, abstract: String, discussion: String = "") -> CommandSpec {
    CommandSpec(
      name: name, abstract: abstract, discussion: discussion, usage: "<channel>",
      arguments: [CommandSpec.channelArgument], options: [CommandSpec.formatOption], positionals: 1...1)
  }

  init(_ arguments: inout CommandArguments) throws(UsageError) {
    self.init(arguments: try OneChannelArguments(&arguments))
  }

  var format: SnapshotFormat { arguments.format }
  var request: Request { Self.request(arguments.channel) }
}

/// `badgectl get <channel>`
struct GetCommand: OneChannelCommand {
  static let spec = oneChannelSpec(
    name: "get", abstract: "Print a channel's state.", discussion: "A channel never written reads as count 0.")
  static func request(_ channel: ChannelName) -> Request { .get(channel) }
  let arguments: OneChannelArguments
}

/// `badgectl mute <channel>`
struct MuteCommand: OneChannelCommand {
  static let spec = oneChannelSpec(name: "mute", abstract: "Mute a channel: it keeps counting but never pulses.")
  static func request(_ channel: ChannelName) -> Request { .write(channel, .mute) }
  let arguments: OneChannelArguments
}

/// `badgectl unmute <channel>`
struct UnmuteCommand: OneChannelCommand {
  static let spec = oneChannelSpec(name: "unmute", abstract: "Unmute a channel.")
  static func request(_ channel: ChannelName) -> Request { .write(channel, .unmute) }
  let arguments: OneChannelArguments
}

/// `badgectl pulse <channel> [<ms>]`
struct PulseCommand: RequestCommand {
  static let spec = CommandSpec(
    name: "pulse", abstract: "Pulse a channel's badge; its count stays.",
    discussion: """
      Starts the channel's pulse window, or extends it, for MS milliseconds or the channel's
      pulse_ms. A channel at 0, a muted one, and one silenced by do-not-disturb do not pulse.
      Prints the channel's state.
      """,
    usage: "<channel> [<ms>]",
    arguments: [
      CommandSpec.channelArgument,
      CommandSpec.Argument(
        name: "<ms>", kind: .number,
        help: "How long, \(CommandSpec.range(length)) milliseconds. (default: the channel's pulse_ms)"),
    ],
    options: [CommandSpec.formatOption], positionals: 1...2)

  /// The lengths a pulse may be given: up to the longest `pulse_ms`; 0 would not pulse.
  static let length = ChannelWrite.pulseLengths

  let channel: ChannelName
  /// How long, in milliseconds; `nil` for the channel's `pulse_ms`.
  let milliseconds: Int?
  let format: SnapshotFormat

  init(_ arguments: inout CommandArguments) throws(UsageError) {
    channel = try arguments.required(.channel)
    milliseconds = try arguments.next(.number(Self.length, noun: "length"))
    format = try arguments.value(CommandSpec.formatOption) ?? .plain
  }

  var request: Request { .write(channel, .pulse(ms: milliseconds)) }
}

/// `badgectl configure <channel> <key>=<value> ...`
struct ConfigureCommand: RequestCommand {
  static let spec = CommandSpec(
    name: "configure", abstract: "Change a channel's settings.",
    discussion: """
      Settings made here win over the config file and are kept across restarts.
      Keys: max_label (\(CommandSpec.range(Limits.maxLabel))), style (count or dot), pulse_ms (\(CommandSpec.range(Limits.pulseMs))), muted (yes or no),
      badge (count or unseen), dnd (obey or ignore), step (\(CommandSpec.range(Limits.step)); what top's - and +
      change the count by), export (a desktop id such as org.example.App: the count is announced
      to docks for that app).
      'key=default' drops a setting so that the config file's value applies again.
      """,
    usage: "<channel> <key>=<value> ...",
    arguments: [
      CommandSpec.channelArgument,
      CommandSpec.Argument(name: "<key>=<value>", kind: .setting, help: "A setting, e.g. style=dot or max_label=9."),
    ],
    options: [CommandSpec.formatOption], positionals: 2...32)

  let channel: ChannelName
  /// `key=value` words, as given: read when the request is made, by the daemon's own parser.
  let settings: [String]
  let format: SnapshotFormat

  init(_ arguments: inout CommandArguments) throws(UsageError) {
    channel = try arguments.required(.channel)
    settings = try arguments.rest(.setting)
    format = try arguments.value(CommandSpec.formatOption) ?? .plain
  }

  /// `CONFIGURE` of the settings, read as the daemon reads them: a key or value it refuses is
  /// refused here in its words (exit 1, as its `ERR` was), and nothing is sent.
  var request: Request {
    get throws(CtlError) {
      do throws(ProtocolError) {
        let (set, reset) = try RequestParser.settings(settings)
        return .configure(channel, set: set, reset: reset)
      } catch {
        throw .daemon(code: error.code.rawValue, message: error.message)
      }
    }
  }
}
