import BadgeProtocol
import Testing

@testable import BadgeCtl

/// What `badgectl` writes to standard error when it refuses a command line, and its exit status.
struct Refusal: Equatable, CustomStringConvertible {
  let text: String
  let status: Int32

  var description: String { "exit \(status): \(text)" }
}

/// Reads `words` (a command line without the program name) as `badgectl` does, into a command of
/// type `T`; records an issue and returns `nil` when it is refused or is another command.
func parse<T: Subcommand>(
  _ words: [String], as type: T.Type, sourceLocation: SourceLocation = #_sourceLocation
) -> T? {
  do throws(CtlError) {
    guard case .run(let command, _) = try BadgeCtl.invocation(words) else {
      Issue.record("\(words) is not a command", sourceLocation: sourceLocation)
      return nil
    }
    guard let typed = command as? T else {
      Issue.record("\(words) is \(command), not \(T.self)", sourceLocation: sourceLocation)
      return nil
    }
    return typed
  } catch {
    Issue.record("\(words) refused: \(error.message)", sourceLocation: sourceLocation)
    return nil
  }
}

/// The words of the line a one-shot command sends: its request as the daemon's encoder writes
/// it, with its id; `nil` without a command or for a request refused before it is sent.
func words(_ command: (some RequestCommand)?) -> [String]? {
  guard let command, let request = try? command.request else { return nil }
  return RequestEncoder.line(request, id: command.id).split(separator: " ").map(String.init)
}

/// The request `line` reads as, as the daemon reads it.
func request(_ line: String) -> Request {
  guard case .success(let parsed)? = RequestParser.parse(line) else { fatalError("'\(line)' is not a request") }
  return parsed.request
}

/// What `badgectl` says, and how it exits, when it refuses `words`; `nil` when it reads them.
func refusal(_ words: [String]) -> Refusal? {
  do throws(CtlError) {
    _ = try BadgeCtl.invocation(words)
    return nil
  } catch {
    return Refusal(text: error.message, status: error.exitStatus)
  }
}

/// A usage error as `badgectl` prints it, exit status 64: the message, the usage line of
/// `command` (the tool's for `nil`), and where to read more.
func usageError(_ message: String, of command: String?) -> Refusal {
  let usage = command.map { Usage.lines[$0] ?? "no usage line for \($0)" } ?? Usage.tool
  let more = command.map { "badgectl \($0) --help" } ?? "badgectl --help"
  return Refusal(text: "Error: \(message)\nUsage: \(usage)\n  See '\(more)' for more information.\n", status: 64)
}

/// The usage lines, as `badgectl` prints them: written out here, so that a change to one shows.
enum Usage {
  static let tool = "badgectl [--socket <path>] <subcommand>"
  static let lines: [String: String] = [
    "incr": "badgectl incr <channel> [<n>] [--format <format>] [--id <id>]",
    "decr": "badgectl decr <channel> [<n>] [--format <format>] [--id <id>]",
    "set": "badgectl set <channel> <n> [--format <format>] [--id <id>]",
    "clear": "badgectl clear <channel> [--upto <total>] | --all [--format <format>] [--id <id>]",
    "open": "badgectl open <channel> [--upto <total>] [--format <format>]",
    "get": "badgectl get <channel> [--format <format>]",
    "list": "badgectl list [--format <format>]",
    "mute": "badgectl mute <channel> [--format <format>]",
    "unmute": "badgectl unmute <channel> [--format <format>]",
    "configure": "badgectl configure <channel> <key>=<value> ... [--format <format>]",
    "seen": "badgectl seen <channel> [--upto <total>] | --all [--format <format>] [--id <id>]",
    "pulse": "badgectl pulse <channel> [<ms>] [--format <format>]",
    "dnd": "badgectl dnd on [<duration> | until <HH:MM>] | off | toggle | status [--format <format>]",
    "watch": "badgectl watch [<channel or glob> ...] [--format <format>] [--fps <n>] [--no-motion] "
      + "[--template <template>] [--max <n>] [--big] [--click <command>] [--open]",
    "stats": "badgectl stats [<channel or glob> ...] [--period <period>] [--format <format>] [--no-motion]",
    "top": "badgectl top [<channel or glob> ...] [--no-motion]",
    "reload": "badgectl reload",
    "ping": "badgectl ping",
    "mqtt": "badgectl mqtt",
    "sources": "badgectl sources [--json]",
    "web": "badgectl web link | token | tokens [revoke <id>] [--read-only] [--name <text>] [--config <file>]",
    "help": "badgectl help [<command>]",
  ]
}

/// The rule for channel names, as every refusal of one states it.
let namingRule = "names are 1-64 characters from A-Z a-z 0-9 . _ - : starting with a letter or digit"
