import BadgeConfig
import BadgeCore
import BadgeMesh
import BadgeTray
import BadgeWeb
import Foundation
import TestSupport
import Testing

/// The man pages render cleanly and describe what the programs do.
@Suite struct ManPageTests {
  static let pages = [
    "badged.1", "badgectl.1", "badged-mqtt.1", "badged-sources.1", "badged-tray.1", "badged-web.1",
    "badged.conf.5",
  ]

  /// A page as `man -l` prints it, without line wrapping in the way of the checks.
  private func rendered(_ page: String, width: Int = 200) throws -> String {
    let result = try run(
      "man", ["-l", Repository.path("man/\(page)")],
      environment: ["MANWIDTH": String(width), "MANPAGER": "cat", "PAGER": "cat"])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty, "\(page): \(result.stderr)")
    return result.stdout
  }

  /// The lines of one section (`COMMANDS`, `OPTIONS`, …) of a rendered page.
  private func section(_ name: String, of text: String) -> [Substring] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(of: Substring(name)) else { return [] }
    let rest = lines[(start + 1)...]
    let end = rest.firstIndex { !$0.isEmpty && !$0.hasPrefix(" ") } ?? rest.endIndex
    return Array(rest[..<end])
  }

  @Test(arguments: pages)
  func rendersWithTheClassicSections(page: String) throws {
    let text = try rendered(page, width: 80)
    #expect(text.count > 1000)
    for name in ["NAME", "SYNOPSIS", "DESCRIPTION", "EXAMPLES", "SEE ALSO"] {
      #expect(text.contains("\n\(name)\n"), "\(page): \(name)")
    }
    // As a user would keep it: rendered to a file.
    let folder = try TemporaryFolder()
    let result = try run(
      "/bin/sh", ["-c", "man -l \"$1\" > \"$2\"", "sh", Repository.path("man/\(page)"), folder.file("page.txt")])
    #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    let size = try FileManager.default.attributesOfItem(atPath: folder.file("page.txt"))[.size] as? Int ?? 0
    #expect(size > 1000)
  }

  @Test(arguments: pages)
  func groffFindsNothingToWarnAbout(page: String) throws {
    let result = try run("groff", ["-ww", "-man", "-Tutf8", "-z", Repository.path("man/\(page)")])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty, "\(page): \(result.stderr)")
  }

  @Test func badgectlPageDescribesEveryCommandAndOption() throws {
    let help = try badgectl(["--help"], socket: nil).stdout
    let commands = section("SUBCOMMANDS:", of: help).compactMap { $0.split(separator: " ").first.map(String.init) }
      .filter { !$0.hasPrefix("See") }
    #expect(commands.contains("reload") && commands.count >= 12, "\(commands)")
    let page = try rendered("badgectl.1")
    let described = section("COMMANDS", of: page).filter { $0.hasPrefix("       ") && !$0.hasPrefix("        ") }
    for command in commands {
      #expect(
        described.contains { $0.dropFirst(7).hasPrefix(command + " ") || $0.dropFirst(7) == command }, "\(command)")
      let options = try badgectl(["help", command], socket: nil).stdout
      for word in section("OPTIONS:", of: options).flatMap({ $0.split(separator: " ") }) where word.hasPrefix("-") {
        let option = word.trimmingCharacters(in: CharacterSet(charactersIn: ","))
        #expect(section("OPTIONS", of: page).contains { $0.contains(option) }, "\(command): \(option)")
      }
    }
    for status in ["0", "1", "64", "69"] {
      #expect(
        section("EXIT STATUS", of: page).contains { $0.split(separator: " ").first == Substring(status) }, "\(status)")
    }
  }

  /// The page of a program describes every option its `--help` lists (`count` of them), every
  /// exit status and its signals.
  private func checkProgramPage(_ program: URL, page name: String, options count: Int) throws {
    let help = try run(program.path, ["--help"]).stdout
    let options = section("OPTIONS:", of: help).compactMap { $0.split(separator: " ").first }
      .filter { $0.hasPrefix("-") }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
    #expect(options.count == count, "\(options)")
    let page = try rendered(name)
    for option in options {
      #expect(section("OPTIONS", of: page).contains { $0.hasPrefix("       " + option) }, "\(option)")
    }
    for status in ["0", "1", "64", "78"] {
      #expect(
        section("EXIT STATUS", of: page).contains { $0.split(separator: " ").first == Substring(status) }, "\(status)")
    }
    for signal in ["SIGTERM, SIGINT", "SIGHUP"] {
      #expect(section("SIGNALS", of: page).contains { $0.contains(signal) })
    }
  }

  @Test func badgedPageDescribesEveryOptionAndExitStatus() throws {
    try checkProgramPage(Binaries.badged, page: "badged.1", options: 7)
  }

  @Test func badgedMQTTPageDescribesEveryOptionAndExitStatus() throws {
    try checkProgramPage(Binaries.badgedMQTT, page: "badged-mqtt.1", options: 5)
  }

  @Test func badgedSourcesPageDescribesEveryOptionExitStatusAndSignal() throws {
    try checkProgramPage(Binaries.badgedSources, page: "badged-sources.1", options: 5)
    #expect(section("SIGNALS", of: try rendered("badged-sources.1")).contains { $0.contains("SIGCONT") })
  }

  @Test func badgedTrayPageDescribesEveryOptionExitStatusAndSignal() throws {
    try checkProgramPage(Binaries.badgedTray, page: "badged-tray.1", options: 5)
  }

  @Test func badgedWebPageDescribesEveryOptionExitStatusAndSignal() throws {
    try checkProgramPage(Binaries.badgedWeb, page: "badged-web.1", options: 5)
  }

  /// The keys a kind of source takes, as badged-sources lists them when it refuses an unknown
  /// one (`…; expected one of kind, channel, …`) in a section that has the keys it requires.
  private func sourceKeys(of kind: String, required: String) throws -> [String] {
    let folder = try TemporaryFolder()
    let config = try folder.write("badged.conf", "[source.probe]\nkind = \(kind)\n\(required)no_such_key = 1\n")
    let result = try run(Binaries.badgedSources.path, ["--config", config])
    #expect(result.status == 78, "\(result.stderr)")
    guard let range = result.stderr.range(of: "expected one of ") else {
      throw TestFailure("no list of keys in: \(result.stderr)")
    }
    let list = result.stderr[range.upperBound...].prefix { $0 != "\n" }
    return list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
  }

  @Test func badgedConfPageDescribesEveryKeyOfEveryKindOfSource() throws {
    let page = try rendered("badged.conf.5")
    let sources = section("[source.NAME]", of: page)
    let required = [
      "maildir": "path = /m\n", "notmuch": "", "exec": "command = true\n", "files": "path = /f\n",
      "imap": "server = imaps://h\nusername = u\npassword_file = /p\n",
    ]
    for (kind, lines) in required.sorted(by: { $0.key < $1.key }) {
      let keys = try sourceKeys(of: kind, required: lines)
      #expect(keys.starts(with: ["kind", "channel", "on_clear", "coalesce_ms"]) && keys.count > 5, "\(keys)")
      let entries = keys.map { $0 == "query.<suffix>" ? "query.suffix" : $0 }
      // The kind's own keys under its heading, the common ones before the first heading.
      let heading = sources.firstIndex { $0.hasPrefix("   kind = \(kind)") }
      #expect(heading != nil, "\(kind)")
      let own = sources[(heading ?? 0)...].dropFirst().prefix { !$0.hasPrefix("   kind = ") }
      let common = sources.prefix { !$0.hasPrefix("   kind = ") }
      for key in entries {
        let described = (own + common).contains { $0.hasPrefix("       \(key) = ") }
        #expect(described, "\(kind): \(key)")
      }
    }
  }

  @Test func badgedConfPageDescribesEveryKey() throws {
    let page = try rendered("badged.conf.5")
    for key in DaemonConfig.DaemonKey.allCases {
      #expect(section("[daemon]", of: page).contains { $0.hasPrefix("       \(key.rawValue) = ") }, "\(key)")
    }
    for key in ResourceLimits.Key.allCases {
      let entry = section("[limits]", of: page).first { $0.hasPrefix("       \(key.rawValue) = ") }
      #expect(entry != nil, "\(key)")
      // One paragraph of words, whatever the filling and justification did with spaces.
      let text = section("[limits]", of: page).joined(separator: " ").split(separator: " ").joined(separator: " ")
      #expect(text.contains("from \(key.range.lowerBound) to \(key.range.upperBound)"), "\(key): its range")
      #expect(text.contains("Default: \(ResourceLimits.defaults[key])."), "\(key): its default")
    }
    for key in SettingKey.allCases.map(\.rawValue) {
      #expect(
        section("[channel NAME] and [channel GLOB]", of: page).contains { $0.hasPrefix("       \(key) = ") }, "\(key)")
    }
    for key in BusConfig.Key.allCases {
      #expect(section("[bridge]", of: page).contains { $0.hasPrefix("       \(key.rawValue) = ") }, "\(key)")
    }
    for key in NotificationsConfig.Key.allCases {
      #expect(section("[notifications]", of: page).contains { $0.hasPrefix("       \(key.rawValue) = ") }, "\(key)")
    }
    for key in MeshConfig.Key.allCases {
      #expect(section("[mqtt]", of: page).contains { $0.hasPrefix("       \(key.rawValue) = ") }, "\(key)")
    }
    for key in TrayConfig.Key.allCases {
      #expect(section("[tray]", of: page).contains { $0.hasPrefix("       \(key.rawValue) = ") }, "\(key)")
    }
    for key in WebConfig.Key.allCases {
      #expect(section("[web]", of: page).contains { $0.hasPrefix("       \(key.rawValue) = ") }, "\(key)")
    }
  }
}
