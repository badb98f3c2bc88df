import BadgeCore
import BadgeMesh
import BadgeSystem
import Foundation
import TestSupport
import Testing

/// Starting, refusing, configuring and stopping the daemon.
@Suite struct LifecycleTests {
  @Test func aSecondDaemonOnTheSameSocketIsRefusedAndTheFirstKeepsServing() throws {
    let first = try DaemonProcess()
    _ = try first.client().request("INCR mail")
    let second = try DaemonProcess(folder: first.folder, waitForSocket: false)
    #expect(second.exitStatus() != 0)
    #expect(second.log.contains("Another badged is already serving"))
    #expect(second.log.split(separator: "\n").count == 1, "one line: \(second.log)")
    #expect(try first.client().request("GET mail")[0].hasPrefix("STATE mail count=1 "))
  }

  @Test func aStaleSocketFileIsReplaced() throws {
    let crashed = try DaemonProcess()
    crashed.crash()
    #expect(FileManager.default.fileExists(atPath: crashed.socket))
    let daemon = try DaemonProcess(folder: crashed.folder)
    #expect(try daemon.client().request("PING") == ["OK pong"])
  }

  @Test func sigtermStopsCleanlyAndRemovesTheSocket() throws {
    let daemon = try DaemonProcess()
    #expect(daemon.stop() == 0)
    #expect(!FileManager.default.fileExists(atPath: daemon.socket))
  }

  @Test func theSocketFolderIsPrivate() throws {
    let folder = try TemporaryFolder()
    let socket = folder.file("run/badged/badged.sock")
    let daemon = try DaemonProcess(folder: folder, socket: socket)
    let socketMode = try FileManager.default.attributesOfItem(atPath: socket)[.posixPermissions] as? Int
    let folderMode =
      try FileManager.default.attributesOfItem(atPath: folder.file("run/badged"))[.posixPermissions] as? Int
    #expect(socketMode == 0o600)
    #expect(folderMode == 0o700)
    _ = daemon
  }

  @Test func theConfigSetsLimitsStylesAndMutes() throws {
    let daemon = try DaemonProcess(
      config: """
        # comments and blank lines are fine
        [daemon]
        max_label = 9

        [channel app:*]
        style = dot

        [channel app:mail]
        style = count
        max_label = 999
        [channel quiet]
        muted = yes
        """)
    let client = try daemon.client()
    #expect(try field(client.request("SET ci 12")[0], "label") == "9+")
    #expect(try field(client.request("SET app:chat 12")[0], "label") == "•")
    #expect(try field(client.request("SET app:mail 1000")[0], "label") == "999+")
    #expect(try field(client.request("GET quiet")[0], "muted") == "1")
    #expect(try client.request("LIST").contains { $0.hasPrefix("STATE quiet ") }, "configured channels are listed")
  }

  @Test(arguments: [
    ("[daemon]\npulse_ms = soon\n", "badged.conf:2: Invalid value 'soon' for pulse_ms"),
    ("[daemon]\nmax_label = 0\n", "badged.conf:2: Invalid value '0' for max_label"),
    ("[daemon]\ncolour = red\n", "badged.conf:2: Unknown key 'colour' in [daemon]"),
    (
      "[daemon]\nsync = sometimes\n",
      "badged.conf:2: Invalid value 'sometimes' for sync: expected always, everysec or never"
    ),
    ("[deamon]\npulse_ms = 1\n", "badged.conf:2: Unknown section [deamon]"),
    ("[channel bad/name]\nstyle = dot\n", "badged.conf:2: Invalid channel name or pattern 'bad/name'"),
    ("[channel mail]\nstyle = square\n", "badged.conf:2: Invalid value 'square' for style"),
    ("# fine\n[daemon]\nthis line is not ini\n", "badged.conf:3: Expected 'key = value'"),
  ])
  func aBadConfigStopsTheStartWithFileLineReasonAndStatus78(config: String, message: String) throws {
    let daemon = try DaemonProcess(config: config, waitForSocket: false)
    #expect(daemon.exitStatus() == 78)
    #expect(daemon.log.contains(message), "\(daemon.log)")
    #expect(!FileManager.default.fileExists(atPath: daemon.socket))
  }

  @Test func aNamedConfigFileMustExist() throws {
    let folder = try TemporaryFolder()
    let daemon = try DaemonProcess(
      folder: folder, arguments: ["--config", folder.file("missing.conf")], waitForSocket: false)
    #expect(daemon.exitStatus() == 78)
    #expect(daemon.log.contains("missing.conf"))
  }

  @Test func usageErrorsExit64() throws {
    for arguments in [["--frob"], ["--socket"], ["stray"], ["--log-level", "loud"]] {
      let daemon = try DaemonProcess(arguments: arguments, waitForSocket: false)
      #expect(daemon.exitStatus() == 64, "\(arguments)")
      #expect(daemon.log.hasPrefix("Error: "), "\(daemon.log)")
    }
  }
}

/// The shipped example config is valid and does what its comments say.
@Suite struct ExampleConfigTests {
  @Test func theExampleConfigLoads() throws {
    let example = try String(contentsOfFile: Repository.path("config/badged.conf"), encoding: .utf8)
    let daemon = try DaemonProcess(config: example)
    let client = try daemon.client()
    #expect(try field(client.request("SET app:telegram 3")[0], "label") == "•")
    let mail = try client.request("SET mail 1200")[0]
    #expect(field(mail, "label") == "999+" && field(mail, "step") == "10")
    let ci = try client.request("INCR ci")[0]
    #expect(field(ci, "muted") == "1" && field(ci, "pulse") == "0")
    _ = try client.request("SET chat 2")
    #expect(try field(client.request("SEEN chat")[0], "label") == "◦")
    _ = try client.request("DND on")
    #expect(try field(client.request("GET pager")[0], "dnd") == "off")
    #expect(try field(client.request("GET mail")[0], "dnd") == "hide")
  }

  @Test func itsMQTTSectionIsOneBadgedMQTTTakes() throws {
    let example = Repository.path("config/badged.conf")
    let config = try MeshConfig.parse(
      IniFile.read(path: example), file: example, defaults: .init(hostName: "desktop", userName: "ana"))
    #expect(config.broker == BrokerAddress(tls: true, host: "broker.lan", port: 8883))
    #expect(config.share == [ChannelPattern("mail")!, ChannelPattern("ci*")!] && config.mirror == [.all])
    #expect(
      config.prefix == "badged/ana" && config.dnd == .local && !config.homeAssistant && config.keepaliveSeconds == 30)
  }

  /// The example's `[source.NAME]` sections stay commented out (badged skips them anyway), and
  /// each one, its leading `# ` removed, is a section badged-sources takes: it starts every
  /// source and runs until told to stop.
  @Test func itsCommentedSourceSectionsAreOnesBadgedSourcesTakes() throws {
    let example = try String(contentsOfFile: Repository.path("config/badged.conf"), encoding: .utf8)
    let lines = example.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(!lines.contains { $0.hasPrefix("[source.") })
    var uncommented: [Substring] = []
    var inSource = false
    for line in lines {
      if line.hasPrefix("# [source.") && line.hasSuffix("]") {
        inSource = true
      } else if !line.hasPrefix("# ") {
        inSource = false
      }
      if inSource { uncommented.append(line.dropFirst(2)) }
    }
    let sections = uncommented.filter { $0.hasPrefix("[source.") }
    #expect(sections.count == 9, "\(sections)")
    let folder = try TemporaryFolder()
    let config = try folder.write("badged.conf", uncommented.joined(separator: "\n") + "\n")
    let sources = try SourcesProcess(
      folder: folder, config: config, socket: folder.file("absent.sock"), arguments: ["--log-level", "info"])
    #expect(waitUntil { sources.log.contains("Running \(sections.count) sources from") }, "\(sources.log)")
    #expect(sources.stop() == 0, "\(sources.log)")
  }
}
