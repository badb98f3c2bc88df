import BadgeCore
import BadgeProtocol

/// A `badgectl` command: its entry in the command table, its arguments read into typed fields,
/// and what it does.
///
/// Reading (`init`) checks every value, so that a bad line is refused with the usage (exit 64)
/// before anything connects; `run` then only does the work. To add an option: declare it (a
/// `Flag` or a `ValueOption`), list it in the spec's options, and read it into a field in
/// `init`.
protocol Subcommand: Sendable {
  /// The command's entry in the table: its name, help texts, arguments and options.
  static var spec: CommandSpec { get }

  /// Reads the arguments the scanner split against `spec`.
  ///
  /// - Throws: a `UsageError` naming the argument or option that is wrong.
  init(_ arguments: inout CommandArguments) throws(UsageError)

  /// Carries the command out against the daemon at `socket`.
  func run(socket: String) throws(CtlError)
}

/// Every `badgectl` command, in the order `badgectl --help` lists them.
enum Subcommands {
  static let all: [any Subcommand.Type] = [
    IncrCommand.self, DecrCommand.self, SetCommand.self, ClearCommand.self, OpenCommand.self, GetCommand.self,
    ListCommand.self, MuteCommand.self, UnmuteCommand.self, ConfigureCommand.self, SeenCommand.self,
    PulseCommand.self, DNDCommand.self, WatchCommand.self, StatsCommand.self, TopCommand.self, ReloadCommand.self,
    PingCommand.self, MQTTCommand.self, SourcesCommand.self, WebCommand.self, HelpCommand.self,
  ]

  static func named(_ name: String) -> (any Subcommand.Type)? {
    all.first { $0.spec.name == name }
  }
}

/// A one-shot command: one request, and the channel states (or the do-not-disturb state) of its
/// reply printed, one line each.
protocol RequestCommand: Subcommand {
  /// The request, made of the fields `init` read and checked; sent as the daemon's encoder
  /// writes it. Only a request the daemon's own parser refuses (`configure`'s settings) throws,
  /// `CtlError.daemon` with the daemon's words, and is not sent.
  var request: Request { get throws(CtlError) }
  /// The request's id (`--id`), if any.
  var id: String? { get }
  /// How the reply's states are printed.
  var format: SnapshotFormat { get }
}

extension RequestCommand {
  var format: SnapshotFormat { .plain }
  var id: String? { nil }

  func run(socket: String) throws(CtlError) {
    try send(socket: socket)
  }

  /// Sends the request and prints its reply's states.
  func send(socket: String) throws(CtlError) {
    let connection = try DaemonConnection(socket: socket)
    // Few writes for many lines: `list` of many channels is a system call per 64 KiB, not per line.
    var output = OutputBuffer()
    try connection.request(try request, id: id) { reply in
      switch reply {
      case .state(let snapshot): output.append(format.line(snapshot) + "\n")
      case .dnd(let dnd, _): output.append(format.line(dnd) + "\n")
      default: break
      }
    }
    output.flush()
  }
}
