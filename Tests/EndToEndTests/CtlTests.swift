import Foundation
import Testing

/// `badgectl` against the real daemon: output, formats and exit codes.
@Suite struct CtlTests {
  @Test func theTourWorks() throws {
    let daemon = try DaemonProcess()
    let s = daemon.socket
    #expect(try badgectl(["incr", "mail"], socket: s).stdout.hasPrefix("mail 1"))
    #expect(try badgectl(["incr", "mail", "4"], socket: s).stdout.hasPrefix("mail 5"))
    #expect(try badgectl(["set", "ci", "120"], socket: s).stdout.hasPrefix("ci 120 (99+)"))
    #expect(try badgectl(["decr", "mail"], socket: s).stdout.hasPrefix("mail 4"))
    #expect(try badgectl(["mute", "mail"], socket: s).stdout == "mail 4 muted\n")
    #expect(try badgectl(["get", "mail"], socket: s).stdout == "mail 4 muted\n")
    #expect(try badgectl(["unmute", "mail"], socket: s).stdout == "mail 4\n")
    let list = try badgectl(["list"], socket: s).stdout.split(separator: "\n")
    #expect(list.map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == ["ci 120", "mail 4"])
    #expect(try badgectl(["clear", "mail"], socket: s).stdout == "mail 0\n")
    #expect(try badgectl(["clear", "--all"], socket: s).stdout == "ci 0\n")
    #expect(try badgectl(["list"], socket: s).stdout == "")
    #expect(try badgectl(["ping"], socket: s).status == 0)
    #expect(try badgectl(["configure", "ci", "style=dot"], socket: s).stdout == "ci 0\n")
    #expect(try badgectl(["incr", "ci"], socket: s).stdout.hasPrefix("ci 1 (•)"))
  }

  @Test func jsonHasEveryField() throws {
    let daemon = try DaemonProcess()
    _ = try badgectl(["set", "ci", "120"], socket: daemon.socket)
    for arguments in [
      ["get", "ci", "--format", "json"], ["--format", "json", "get", "ci"], ["get", "--format=json", "ci"],
    ] {
      let out = try badgectl(arguments, socket: daemon.socket)
      #expect(out.status == 0)
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any], "\(arguments)")
      #expect(object["channel"] as? String == "ci")
      #expect(object["count"] as? Int == 120)
      #expect(object["label"] as? String == "99+")
      #expect(object["dot"] as? Bool == false)
      #expect(object["muted"] as? Bool == false)
      #expect(object["online"] as? Bool == true)
      #expect((object["pulse"] as? Int).map { $0 > 0 && $0 <= 3000 } == true)
    }
  }

  @Test(arguments: [
    (["frob"], "Unknown command 'frob'"),
    (["inrc", "mail"], "Did you mean 'incr'?"),
    (["incr"], "Missing expected argument '<channel>'"),
    (["incr", "mail", "1", "2"], "Unexpected argument '2'"),
    (["incr", "bad name"], "Invalid channel name 'bad name'"),
    (["incr", "mail", "0"], "Invalid number '0'"),
    (["set", "mail", "-1"], "Invalid number '-1'"),
    (["set", "mail", "2147483648"], "Invalid number '2147483648'"),
    (["get", "mail", "--format", "xml"], "Invalid value 'xml' for '--format <format>'"),
    (["get", "mail", "--fromat", "json"], "Did you mean '--format'?"),
    (["clear"], "Missing expected argument '<channel>' (or --all)"),
    (["clear", "mail", "--all"], "Give a channel or --all, not both"),
    (["watch", "a/b"], "Invalid channel or pattern 'a/b'"),
    (["configure", "mail", "style"], "Expected <key>=<value>, got 'style'"),
    // A newline or tab in an argument would be a second request on the daemon's side.
    (["configure", "mail", "style=count\nINCR\tinjected\t5"], "Invalid argument 'style=count\\nINCR\\tinjected\\t5'"),
    (["configure", "mail", "style=dot max_label=9"], "arguments hold no spaces or control characters"),
    (["--socket"], "Missing value for '--socket <path>'"),
    (["help", "frob"], "Unknown command 'frob'"),
  ])
  func usageErrorsExit64WithMessageAndUsage(arguments: [String], message: String) throws {
    let result = try badgectl(arguments, socket: "/nonexistent/socket")
    #expect(result.status == 64, "\(arguments): \(result.stderr)")
    #expect(result.stderr.hasPrefix("Error: "))
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(result.stderr.contains("\nUsage: badgectl"))
    #expect(result.stdout.isEmpty)
  }

  @Test func anUnreachableDaemonExits69NamingTheSocket() throws {
    let folder = try TemporaryFolder()
    let socket = folder.file("absent.sock")
    for arguments in [["incr", "mail"], ["get", "mail"], ["list"], ["ping"]] {
      let result = try badgectl(arguments, socket: socket)
      #expect(result.status == 69)
      #expect(result.stderr.contains("Cannot reach badged at '\(socket)'"))
    }
    // --socket wins over BADGED_SOCKET.
    let daemon = try DaemonProcess()
    #expect(try badgectl(["--socket", daemon.socket, "ping"], socket: socket).status == 0)
    #expect(try badgectl(["ping", "--socket=\(socket)"], socket: daemon.socket).status == 69)
  }

  @Test func anErrorFromTheDaemonExits1() throws {
    let daemon = try DaemonProcess()
    _ = try badgectl(["set", "mail", "2147483647"], socket: daemon.socket)
    let result = try badgectl(["incr", "mail"], socket: daemon.socket)
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("Error: ") && result.stderr.contains("out-of-range"))
    #expect(try badgectl(["configure", "mail", "colour=red"], socket: daemon.socket).status == 1)
  }

  @Test func helpHasTheUsualShape() throws {
    let help = try badgectl(["--help"], socket: nil)
    #expect(help.status == 0)
    for heading in [
      "OVERVIEW: ", "USAGE: badgectl [--socket <path>] <subcommand>", "OPTIONS:", "SUBCOMMANDS:",
      "See 'badgectl help <subcommand>' for detailed help.",
    ] {
      #expect(help.stdout.contains(heading), "\(heading)")
    }
    for command in ["incr", "decr", "set", "clear", "get", "list", "mute", "unmute", "watch", "ping", "help"] {
      #expect(help.stdout.contains("\n  \(command) "), "\(command) listed")
    }
    let incr = try badgectl(["help", "incr"], socket: nil)
    #expect(incr.stdout.contains("USAGE: badgectl incr <channel> [<n>] [--format <format>]"))
    #expect(incr.stdout.contains("ARGUMENTS:"))
    #expect(try badgectl(["incr", "--help"], socket: nil).stdout == incr.stdout)
    #expect(try badgectl([], socket: nil).stdout == help.stdout)
    let version = try badgectl(["--version"], socket: nil)
    #expect(version.status == 0 && version.stdout.hasPrefix("badgectl "))
  }
}
