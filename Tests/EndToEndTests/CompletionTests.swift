import Foundation
import TestSupport
import Testing

/// Shell completions: badgectl's are generated from its command table, badged's are files in
/// completions/. Each is loaded into its real shell and asked for completions.
@Suite struct CompletionTests {
  /// The commands `badgectl --help` lists.
  private func commands() throws -> [String] {
    let help = try badgectl(["--help"], socket: nil).stdout
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex(of: "SUBCOMMANDS:"))
    return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { $0.split(separator: " ").first.map(String.init) }
  }

  /// The options `badged --help` lists.
  private func daemonOptions() throws -> [String] {
    let help = try run(Binaries.badged.path, ["--help"]).stdout
    return help.split(separator: "\n").compactMap { line -> [String]? in
      guard line.hasPrefix("  -") else { return nil }
      return line.split(separator: " ").filter { $0.hasPrefix("-") }.map {
        $0.trimmingCharacters(in: CharacterSet(charactersIn: ","))
      }
    }.flatMap { $0 }
  }

  /// A daemon with two channels, and the environment for completion scripts to reach it.
  private func daemonWithChannels() throws -> (DaemonProcess, [String: String]) {
    let daemon = try DaemonProcess()
    _ = try daemon.client().request("INCR mail")
    _ = try daemon.client().request("INCR news")
    let path = Binaries.folder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    return (daemon, ["PATH": path, "BADGED_SOCKET": daemon.socket])
  }

  /// `badgectl --generate-completion <shell>` written to a file.
  private func generated(_ shell: String, in folder: TemporaryFolder) throws -> String {
    let result = try badgectl(["--generate-completion", shell], socket: nil)
    #expect(result.status == 0 && result.stderr.isEmpty)
    return try folder.write("badgectl.\(shell)", result.stdout)
  }

  /// Runs bash with `script` loaded; `c WORD...` prints what completing the last word offers.
  private func bash(_ script: String, _ calls: [[String]], environment: [String: String] = [:], function: String) throws
    -> [String]
  {
    let body =
      "source \"$1\"; c() { COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); \(function); echo "
      + "\"${COMPREPLY[*]}\"; }; "
      + calls.map { "c " + $0.map { "'\($0)'" }.joined(separator: " ") }.joined(separator: "; ")
    let result = try run("bash", ["--norc", "-c", body, "bash", script], environment: environment)
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    return result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
  }

  /// Runs fish with `script` loaded; returns the completions offered for each line.
  private func fish(_ script: String, _ lines: [String], environment: [String: String] = [:]) throws -> [[String]] {
    let body =
      "source $argv[1]; "
      + lines.map { "complete -C '\($0)' | string replace -r '\\t.*' ''; echo ====" }.joined(separator: "; ")
    let result = try run("fish", ["--no-config", "-c", body, script], environment: environment)
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    return result.stdout.components(separatedBy: "====\n").dropLast().map { $0.split(separator: "\n").map(String.init) }
  }

  @Test func badgectlScriptsAreValidForTheirShells() throws {
    let folder = try TemporaryFolder()
    for (shell, check) in [("bash", ["bash", "-n"]), ("zsh", ["zsh", "-n"]), ("fish", ["fish", "-n"])] {
      let result = try run(check[0], [check[1], try generated(shell, in: folder)])
      #expect(result.status == 0 && result.stderr.isEmpty, "\(shell): \(result.stderr)")
    }
    let bad = try badgectl(["--generate-completion", "tcsh"], socket: nil)
    #expect(bad.status == 64 && bad.stderr.contains("bash, zsh, fish"))
  }

  @Test func bashCompletesCommandsOptionsValuesAndChannels() throws {
    let folder = try TemporaryFolder()
    let (daemon, environment) = try daemonWithChannels()
    let replies = try bash(
      try generated("bash", in: folder),
      [
        ["badgectl", ""], ["badgectl", "re"], ["badgectl", "get", "--format", ""], ["badgectl", "clear", "--"],
        ["badgectl", "get", "--format", "json", ""], ["badgectl", "configure", "mail", "st"],
        ["badgectl", "help", "w"],
        ["badgectl", "--socket", daemon.socket, "mute", "n"], ["badgectl", "dnd", "t"],
      ],
      environment: environment, function: "_badgectl")
    #expect(replies.count == 9)
    #expect(replies.first?.split(separator: " ").map(String.init) == (try commands()))
    #expect(
      Array(replies.dropFirst()) == [
        "reload", "plain json", "--all --upto --format --id --socket --help", "mail news", "style= step=", "watch web",
        "news", "toggle",
      ])
  }

  @Test func zshCompletesCommandsOptionsValuesAndChannels() throws {
    let folder = try TemporaryFolder()
    let (daemon, environment) = try daemonWithChannels()
    defer { withExtendedLifetime(daemon) {} }
    let script = try generated("zsh", in: folder)
    // The completion system's functions stood in for by functions that print what they get.
    let body = """
      compadd() { print -r -- "${@:#(-S|)}"; }
      _describe() { print -r -- ${(P)${@[-1]}%%:*}; }
      _files() { print files; }
      source "$1" >/dev/null
      c() { words=("$@"); CURRENT=$#; _badgectl; }
      c badgectl ''; c badgectl get --format ''; c badgectl clear --; c badgectl get ''; c badgectl configure mail ''; c badgectl --socket ''
      """
    let result = try run("zsh", ["-f", "-c", body, "zsh", script], environment: environment)
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == (try commands()).joined(separator: " "))
    #expect(
      Array(lines.dropFirst()) == [
        "-- plain json", "-- --all --upto --format --id --socket -h --help", "-- mail news",
        "-- max_label= style= pulse_ms= muted= badge= dnd= step= export=", "files",
      ])
  }

  @Test func fishCompletesCommandsOptionsValuesAndChannels() throws {
    let folder = try TemporaryFolder()
    let (daemon, environment) = try daemonWithChannels()
    defer { withExtendedLifetime(daemon) {} }
    let offered = try fish(
      try generated("fish", in: folder),
      ["badgectl ", "badgectl re", "badgectl get --format ", "badgectl clear --", "badgectl get ", "badgectl help w"],
      environment: environment)
    #expect(offered.count == 6)
    #expect(Set(offered[0]) == Set(try commands()))
    #expect(offered[1] == ["reload"])
    #expect(offered[2] == ["json", "plain"])
    #expect(Set(offered[3]) == ["--all", "--upto", "--format", "--id", "--help", "--socket"])
    #expect(offered[4] == ["mail", "news"])
    #expect(offered[5] == ["watch", "web"])
  }

  @Test func badgedCompletionsOfferEveryOption() throws {
    let options = try daemonOptions()
    #expect(options.contains("--log-level") && options.count >= 8, "\(options)")
    let bashReplies = try bash(
      Repository.path("completions/badged.bash"), [["badged", "-"], ["badged", "--log-level", ""]], function: "_badged")
    #expect(Set(bashReplies[0].split(separator: " ").map(String.init)) == Set(options))
    #expect(bashReplies[1] == "emerg alert crit err warning notice info debug")
    let offered = try fish(Repository.path("completions/badged.fish"), ["badged -", "badged --log-level "])
    #expect(Set(offered[0]) == Set(options))
    #expect(Set(offered[1]) == ["emerg", "alert", "crit", "err", "warning", "notice", "info", "debug"])
    let zsh = try String(contentsOfFile: Repository.path("completions/_badged"), encoding: .utf8)
    for option in options { #expect(zsh.contains(option), "\(option)") }
    let syntax = try run("zsh", ["-n", Repository.path("completions/_badged")])
    #expect(syntax.status == 0 && syntax.stderr.isEmpty)
  }
}
