import Foundation
import TestSupport
import Testing

/// `make install` and `make uninstall` for the two kinds of prefix, with the binaries the tests
/// run (BINDIR_SOURCE), so no release build is needed here. Each install runs in a private
/// mount namespace where the whole root file system is read-only except the one folder it may
/// write to: a write anywhere else fails the install.
@Suite struct InstallTests {
  /// One way of installing: the variables given to make, and where the files land.
  struct Prefix: CustomTestStringConvertible, Sendable {
    let name: String
    /// Variables for make (besides DESTDIR and BINDIR_SOURCE), given the fake home folder.
    let variables: @Sendable (_ home: String) -> [String]
    /// The prefix the files are installed for (ExecStart= names it), given the home folder.
    let prefix: @Sendable (_ home: String) -> String
    /// The unit folder, relative to the prefix.
    let units: String
    /// badged-tray's autostart entry, outside the prefix, given the home folder.
    let autostart: @Sendable (_ home: String) -> String

    var testDescription: String { name }

    /// The default: `~/.local`, units in `~/.local/share/systemd/user`.
    static let perUser = Prefix(
      name: "per-user", variables: { _ in [] }, prefix: { $0 + "/.local" }, units: "share/systemd/user",
      autostart: { $0 + "/.config/autostart/badged-tray.desktop" })
    /// What a packager runs: PREFIX=/usr, units in /usr/lib/systemd/user.
    static let system = Prefix(
      name: "system", variables: { _ in ["PREFIX=/usr"] }, prefix: { _ in "/usr" }, units: "lib/systemd/user",
      autostart: { _ in "/etc/xdg/autostart/badged-tray.desktop" })

    /// Every file `make install` writes, relative to the prefix.
    var files: [String] {
      [
        "bin/badged", "bin/badgectl", "bin/badged-mqtt", "bin/badged-sources", "bin/badged-tray",
        "bin/badged-web", "libexec/badged/badgectl-session",
        "\(units)/badged.service", "\(units)/badged.socket", "\(units)/badged-mqtt.service",
        "\(units)/badged-sources.service", "\(units)/badged-tray.service", "\(units)/badged-web.service",
        "\(units)/badged.service.d/sandbox.conf.disabled",
        "\(units)/badged-mqtt.service.d/sandbox.conf.disabled",
        "\(units)/badged-sources.service.d/sandbox.conf.disabled",
        "share/man/man1/badged.1", "share/man/man1/badgectl.1", "share/man/man1/badged-mqtt.1",
        "share/man/man1/badged-sources.1", "share/man/man1/badged-tray.1", "share/man/man1/badged-web.1",
        "share/man/man5/badged.conf.5",
        "share/doc/badged/badged.conf",
        "share/bash-completion/completions/badgectl", "share/bash-completion/completions/badged",
        "share/zsh/site-functions/_badgectl", "share/zsh/site-functions/_badged",
        "share/fish/vendor_completions.d/badgectl.fish", "share/fish/vendor_completions.d/badged.fish",
      ] + Prefix.webFiles.map { "share/badged/web/" + $0 }
    }

    /// The page badged-web serves: every file of the checkout's web/.
    static var webFiles: [String] {
      (try? FileManager.default.contentsOfDirectory(atPath: Repository.path("web"))) ?? []
    }
  }

  /// Runs `make target` with `variables` where only `writable` can be written to, with HOME
  /// set to `home` and no XDG variables.
  private func make(_ target: String, _ variables: [String], home: String, writable: String) throws -> CtlResult {
    let script = "mount --bind \"$1\" \"$1\" && mount -o remount,bind,ro / && shift && exec \"$@\""
    return try run(
      "/usr/bin/env",
      [
        "-u", "XDG_CONFIG_HOME", "-u", "XDG_DATA_HOME", "HOME=\(home)",
        "/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh", writable,
        "make", "-s", target, "BINDIR_SOURCE=\(Binaries.folder.path)",
      ] + variables,
      currentDirectory: Repository.root.path)
  }

  /// Every file under `path`, relative to it.
  private func files(_ path: String) -> Set<String> {
    let enumerator = FileManager.default.enumerator(atPath: path)
    var result = Set<String>()
    while let file = enumerator?.nextObject() as? String {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: path + "/" + file, isDirectory: &isFolder), !isFolder.boolValue {
        result.insert(file)
      }
    }
    return result
  }

  /// The folders of systemd's user unit search path for a user whose home is `home`.
  private func unitSearchPath(home: String, runtime: String) throws -> [String] {
    try run(
      "/usr/bin/env",
      [
        "-u", "XDG_CONFIG_HOME", "-u", "XDG_DATA_HOME", "HOME=\(home)", "XDG_RUNTIME_DIR=\(runtime)",
        "/usr/bin/systemd-analyze", "--user", "unit-paths",
      ]
    ).stdout.split(separator: "\n").map(String.init)
  }

  @Test(arguments: [Prefix.perUser, .system])
  func aDestdirInstallWritesOnlyThereAndUninstallTakesExactlyThatAway(_ kind: Prefix) throws {
    try Binaries.check()
    let folder = try TemporaryFolder()
    let home = folder.file("home")
    let destination = folder.file("dest")
    let prefix = kind.prefix(home)
    let staged = destination + prefix
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    // Files of someone else's in the same folders must survive the uninstall.
    try FileManager.default.createDirectory(atPath: staged + "/bin", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: staged + "/" + kind.units, withIntermediateDirectories: true)
    try "#!/bin/sh\n".write(toFile: staged + "/bin/other", atomically: true, encoding: .utf8)
    try "[Service]\nExecStart=/bin/true\n".write(
      toFile: "\(staged)/\(kind.units)/other.service", atomically: true, encoding: .utf8)
    let others: Set = ["bin/other", "\(kind.units)/other.service"]
    let variables = kind.variables(home) + ["DESTDIR=\(destination)"]

    let install = try make("install", variables, home: home, writable: destination)
    #expect(install.status == 0, "\(install.stderr)")
    #expect(install.stdout.contains("systemctl --user enable --now badged.socket"))
    #expect(files(staged) == Set(kind.files).union(others))
    // The one file outside the prefix: the tray's autostart entry, where desktops read it.
    let autostart = destination + kind.autostart(home)
    #expect(FileManager.default.fileExists(atPath: autostart))
    #expect(files(destination).count == kind.files.count + others.count + 1, "files outside the prefix")
    #expect(files(home).isEmpty)
    let entry = try String(contentsOfFile: autostart, encoding: .utf8)
    #expect(entry.contains("\nExec=\(prefix)/bin/badged-tray\n") && entry.contains("\nX-systemd-skip=true\n"))

    let mode = try FileManager.default.attributesOfItem(atPath: staged + "/bin/badgectl")[.posixPermissions] as? Int
    #expect(mode == 0o755)
    let service = try String(contentsOfFile: "\(staged)/\(kind.units)/badged.service", encoding: .utf8)
    #expect(service.contains("\nExecStart=\(prefix)/bin/badged\n"))
    #expect(!service.contains("@bindir@"))
    let bridge = try String(contentsOfFile: "\(staged)/\(kind.units)/badged-mqtt.service", encoding: .utf8)
    #expect(bridge.contains("\nExecStart=\(prefix)/bin/badged-mqtt\n"))
    #expect(!bridge.contains("@bindir@"))
    let sources = try String(contentsOfFile: "\(staged)/\(kind.units)/badged-sources.service", encoding: .utf8)
    #expect(sources.contains("\nExecStart=\(prefix)/bin/badged-sources\n"))
    #expect(!sources.contains("@bindir@"))
    let tray = try String(contentsOfFile: "\(staged)/\(kind.units)/badged-tray.service", encoding: .utf8)
    #expect(tray.contains("\nExecStart=\(prefix)/bin/badged-tray\n"))
    #expect(!tray.contains("@bindir@"))

    // The unit folder is one systemd's user manager searches, so enabling needs nothing more.
    let runtime = folder.file("run")
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    #expect(try unitSearchPath(home: home, runtime: runtime).contains("\(prefix)/\(kind.units)"))
    if kind.name == Prefix.system.name {
      let packagers = try run("pkg-config", ["--variable=systemduserunitdir", "systemd"]).stdout
      #expect(packagers == "\(prefix)/\(kind.units)\n")
    }

    let uninstall = try make("uninstall", variables, home: home, writable: destination)
    #expect(uninstall.status == 0, "\(uninstall.stderr)")
    #expect(files(destination) == Set(others.map { String(prefix.dropFirst()) + "/" + $0 }))
  }

  /// The default install as a user runs it (no DESTDIR), writing only into the home folder;
  /// the installed units pass systemd's checks.
  @Test func aPerUserInstallWritesOnlyIntoTheHomeFolderAndItsUnitsPassSystemdsChecks() throws {
    try Binaries.check()
    let folder = try TemporaryFolder()
    let home = folder.file("home")
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)

    let install = try make("install", [], home: home, writable: home)
    #expect(install.status == 0, "\(install.stderr)")
    #expect(
      files(home) == Set(Prefix.perUser.files.map { ".local/" + $0 } + [".config/autostart/badged-tray.desktop"]))
    #expect(try run(home + "/.local/bin/badgectl", ["--version"]).stdout.hasPrefix("badgectl "))
    // badgectl finds badgectl-session where make install put it: the option that does not fit
    // the format is refused there (exit 69 would say it was not found).
    let watch = try run(home + "/.local/bin/badgectl", ["watch", "--big", "--format", "plain"])
    #expect(watch.status == 64 && watch.stderr.hasPrefix("Error: '--big' applies to --format term"), "\(watch.stderr)")
    let completion = try String(
      contentsOfFile: home + "/.local/share/bash-completion/completions/badgectl", encoding: .utf8)
    #expect(completion == (try badgectl(["--generate-completion", "bash"], socket: nil)).stdout)

    // With the installed man pages for Documentation=.
    let units = home + "/.local/share/systemd/user"
    let runtime = folder.file("run")
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    let verify = try run(
      "/usr/bin/systemd-analyze",
      [
        "--user", "verify", units + "/badged.service", units + "/badged.socket", units + "/badged-mqtt.service",
        units + "/badged-sources.service", units + "/badged-tray.service", units + "/badged-web.service",
      ],
      environment: ["XDG_RUNTIME_DIR": runtime, "MANPATH": home + "/.local/share/man"])
    #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify.stderr)")

    let uninstall = try make("uninstall", [], home: home, writable: home)
    #expect(uninstall.status == 0, "\(uninstall.stderr)")
    #expect(files(home).isEmpty)
  }

  /// The installed unit's exposure in `systemd-analyze security --offline=true --user`, on its
  /// own and with the opt-in drop-in enabled as badged(1) says (renamed to sandbox.conf).
  /// 5.9 is all a user manager can enforce without a user namespace (see badged.service);
  /// badged-mqtt's unit scores 6.2, the network added, and 1.5 with its own drop-in, which
  /// closes all but the network. badged-sources' unit scores 6.2 too (the network for exec
  /// commands, and no MemoryDenyWriteExecute= for them), and 1.5 with its drop-in, which keeps
  /// the home folder readable and the mail folders writable.
  @Test func theInstalledUnitScores5Point9AndWithTheSandbox0Point8() throws {
    try Binaries.check()
    let folder = try TemporaryFolder()
    let home = folder.file("home")
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    let install = try make("install", [], home: home, writable: home)
    #expect(install.status == 0, "\(install.stderr)")
    let units = home + "/.local/share/systemd/user"
    let runtime = folder.file("run")
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)

    let plain = try ServiceUnit.exposure(of: "badged.service", unitPath: units, runtime: runtime)
    #expect(plain.score == 5.9, "\(plain.report)")
    #expect(plain.report.contains("✓ SystemCallFilter=~@privileged"))
    // The bridge's: the same, with IPv4 and IPv6 sockets for the broker.
    let bridge = try ServiceUnit.exposure(of: "badged-mqtt.service", unitPath: units, runtime: runtime)
    #expect(bridge.score == 6.2, "\(bridge.report)")
    #expect(bridge.report.contains("✓ RestrictAddressFamilies=~AF_PACKET"))
    let sources = try ServiceUnit.exposure(of: "badged-sources.service", unitPath: units, runtime: runtime)
    #expect(sources.score == 6.2, "\(sources.report)")
    #expect(sources.report.contains("✗ MemoryDenyWriteExecute="), "commands may need W+X memory")

    /// The unit's exposure with its drop-in enabled as its man page says (renamed to sandbox.conf).
    func sandboxedExposure(of unit: String) throws -> (score: Double, report: String) {
      try FileManager.default.moveItem(
        atPath: units + "/\(unit).d/sandbox.conf.disabled", toPath: units + "/\(unit).d/sandbox.conf")
      return try ServiceUnit.exposure(of: unit, unitPath: units, runtime: runtime)
    }

    let sandboxed = try sandboxedExposure(of: "badged.service")
    #expect(sandboxed.score == 0.8, "\(sandboxed.report)")
    #expect(sandboxed.report.contains("✓ PrivateUsers="))

    let sandboxedBridge = try sandboxedExposure(of: "badged-mqtt.service")
    #expect(sandboxedBridge.score == 1.5, "\(sandboxedBridge.report)")
    #expect(sandboxedBridge.report.contains("✓ PrivateUsers="))
    #expect(sandboxedBridge.report.contains("✗ PrivateNetwork="), "the broker stays reachable")
    #expect(sandboxedBridge.report.contains("✓ RestrictAddressFamilies=~AF_PACKET"))

    let sandboxedSources = try sandboxedExposure(of: "badged-sources.service")
    #expect(sandboxedSources.score == 1.5, "\(sandboxedSources.report)")
    #expect(sandboxedSources.report.contains("✓ PrivateUsers="))
    #expect(sandboxedSources.report.contains("✗ ProtectHome="), "the mail folders stay readable")
    #expect(sandboxedSources.report.contains("✓ ProtectSystem="))

    // The sandboxed units still verify without a warning.
    let verify = try run(
      ServiceUnit.analyze,
      [
        "--user", "verify", units + "/badged.service", units + "/badged-mqtt.service",
        units + "/badged-sources.service",
      ],
      environment: [
        "XDG_RUNTIME_DIR": runtime, "MANPATH": home + "/.local/share/man", "SYSTEMD_UNIT_PATH": units + ":",
      ])
    #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify.stderr)")
    let uninstall = try make("uninstall", [], home: home, writable: home)
    #expect(uninstall.status == 0, "\(uninstall.stderr)")
    #expect(files(home).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: units + "/badged.service.d"))
    #expect(!FileManager.default.fileExists(atPath: units + "/badged-mqtt.service.d"))
    #expect(!FileManager.default.fileExists(atPath: units + "/badged-sources.service.d"))
  }
}
