import BadgeCore
import Testing

@testable import BadgeCtl

/// The shape of a command line, whatever the command: global options, the command's name,
/// options and their values, `--`, and how many arguments there are.
@Suite struct CommandLineTests {
  @Test func noArgumentsAndHelpShowTheToolsHelp() {
    for words in [[], ["--help"], ["-h"], ["help"], ["--socket", "/s", "--help"]] {
      #expect(parse(words, as: HelpCommand.self)?.topic == nil, "\(words)")
    }
  }

  @Test func aCommandsHelpComesFromHelpOrHelpFlag() {
    for words in [
      ["help", "incr"], ["incr", "--help"], ["incr", "-h"], ["incr", "mail", "--fromat", "x", "--help"],
    ] {
      #expect(parse(words, as: HelpCommand.self)?.topic?.name == "incr", "\(words)")
    }
  }

  @Test func versionAndCompletions() throws {
    guard case .version = try BadgeCtl.invocation(["--version"]) else {
      Issue.record("--version")
      return
    }
    for (words, shell) in [
      (["--generate-completion", "bash"], CompletionScript.Shell.bash),
      (["--generate-completion=zsh"], .zsh), (["--socket", "/s", "--generate-completion", "fish"], .fish),
    ] {
      guard case .completion(let given) = try BadgeCtl.invocation(words) else {
        Issue.record("\(words)")
        continue
      }
      #expect(given == shell)
    }
  }

  @Test func theSocketComesBeforeOrAfterTheCommand() throws {
    for words in [
      ["--socket", "/run/b.sock", "ping"], ["ping", "--socket", "/run/b.sock"], ["ping", "--socket=/run/b.sock"],
    ] {
      guard case .run(let command, let socket) = try BadgeCtl.invocation(words) else {
        Issue.record("\(words)")
        continue
      }
      #expect(command is PingCommand && socket == "/run/b.sock", "\(words)")
    }
    guard case .run(_, let socket) = try BadgeCtl.invocation(["ping"]) else { return }
    #expect(socket == nil)
  }

  @Test func aCommandsOptionMayComeBeforeTheCommand() {
    let get = parse(["--format", "json", "get", "mail"], as: GetCommand.self)
    #expect(get?.format == .json && get?.arguments.channel.description == "mail")
    #expect(parse(["get", "--format=json", "mail"], as: GetCommand.self)?.format == .json)
  }

  @Test func doubleDashEndsTheOptions() {
    #expect(parse(["incr", "--", "mail"], as: IncrCommand.self)?.arguments.channel.description == "mail")
    #expect(parse(["incr", "mail", "--", "3"], as: IncrCommand.self)?.arguments.amount == 3)
    #expect(refusal(["get", "--", "--all"]) == usageError("Invalid channel name '--all'; \(namingRule)", of: "get"))
    #expect(refusal(["--", "get", "mail"]) == usageError("Unknown option '--'", of: nil))
  }

  @Test(
    arguments: [
      // The tool's own errors, with the tool's usage.
      (["frob"], "Unknown command 'frob'.", nil),
      (["inrc", "mail"], "Unknown command 'inrc'. Did you mean 'incr'?", nil),
      (["sett", "mail", "1"], "Unknown command 'sett'. Did you mean 'set'?", nil),
      (["--frob"], "Unknown option '--frob'", nil),
      (["-x"], "Unknown option '-x'", nil),
      (["-x", "get", "mail"], "Unknown option '-x'", "get"),
      (["--socket"], "Missing value for '--socket <path>'", nil),
      (["--socket=", "ping"], "Missing value for '--socket <path>'", nil),
      (["--generate-completion"], "Expected '--generate-completion <shell>' with one of bash, zsh, fish", nil),
      (["--generate-completion", "tcsh"], "Expected '--generate-completion <shell>' with one of bash, zsh, fish", nil),
      // A command's options.
      (["get", "mail", "--fromat", "json"], "Unknown option '--fromat'. Did you mean '--format'?", "get"),
      (["ping", "--sockt", "/s"], "Unknown option '--sockt'. Did you mean '--socket'?", "ping"),
      (["incr", "mail", "--hlep"], "Unknown option '--hlep'. Did you mean '--help'?", "incr"),
      (["incr", "mail", "--all"], "Unknown option '--all'", "incr"),
      (["get", "mail", "--version"], "Unknown option '--version'", "get"),
      (["get", "mail", "--format"], "Missing value for '--format <format>'", "get"),
      (
        ["get", "mail", "--format", "xml"], "Invalid value 'xml' for '--format <format>'; expected one of plain, json",
        "get"
      ),
      (["get", "mail", "--format="], "Invalid value '' for '--format <format>'; expected one of plain, json", "get"),
      (["clear", "--all=1"], "The flag '--all' takes no value", "clear"),
      // How many arguments.
      (["incr"], "Missing expected argument '<channel>'", "incr"),
      (["set", "mail"], "Missing expected argument '<n>'", "set"),
      (["configure", "mail"], "Missing expected argument '<key>=<value>'", "configure"),
      (["incr", "mail", "1", "2"], "Unexpected argument '2'", "incr"),
      (["get", "mail", "extra"], "Unexpected argument 'extra'", "get"),
      (["list", "extra"], "Unexpected argument 'extra'", "list"),
      (["reload", "now"], "Unexpected argument 'now'", "reload"),
      (["ping", "extra"], "Unexpected argument 'extra'", "ping"),
      (["mute", "a", "b"], "Unexpected argument 'b'", "mute"),
      // A negative number is a value, not an option.
      (["set", "mail", "-1"], "Invalid number '-1'; expected a whole number from 0 to 2147483647", "set"),
    ] as [([String], String, String?)])
  func refusedWithTheUsage(words: [String], message: String, command: String?) {
    #expect(refusal(words) == usageError(message, of: command))
  }

  @Test func globsAreCappedAt64() {
    let patterns = (1...64).map { "c\($0)" }
    #expect(parse(["watch"] + patterns, as: WatchCommand.self)?.patterns.count == 64)
    #expect(refusal(["watch"] + patterns + ["c65"]) == usageError("Unexpected argument 'c65'", of: "watch"))
  }

  @Test func settingsAreCappedAt31() {
    let settings = (1...31).map { "k\($0)=v" }
    #expect(parse(["configure", "mail"] + settings, as: ConfigureCommand.self)?.settings == settings)
    #expect(
      refusal(["configure", "mail"] + settings + ["k32=v"])
        == usageError("Unexpected argument 'k32=v'", of: "configure"))
  }
}
