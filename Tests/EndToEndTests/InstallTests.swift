import Foundation
import Testing

/// `make install` and `make uninstall` into a temporary PREFIX, with the binaries the tests
/// run (BINDIR_SOURCE), so no release build is needed here.
@Suite struct InstallTests {
  static let installed = [
    "prefix/bin/badged", "prefix/bin/badgectl",
    "units/badged.service", "units/badged.socket", "units/badged.service.d/sandbox.conf.disabled",
    "prefix/share/man/man1/badged.1", "prefix/share/man/man1/badgectl.1", "prefix/share/man/man5/badged.conf.5",
    "prefix/share/doc/badged/badged.conf",
    "prefix/share/bash-completion/completions/badgectl", "prefix/share/bash-completion/completions/badged",
    "prefix/share/zsh/site-functions/_badgectl", "prefix/share/zsh/site-functions/_badged",
    "prefix/share/fish/vendor_completions.d/badgectl.fish", "prefix/share/fish/vendor_completions.d/badged.fish",
  ]

  private func make(_ target: String, _ folder: TemporaryFolder) throws -> CtlResult {
    try run(
      "make",
      ["-s", target, "PREFIX=\(folder.file("prefix"))", "UNITDIR=\(folder.file("units"))", "BINDIR_SOURCE=\(Binaries.folder.path)"],
      currentDirectory: Repository.root.path)
  }

  /// Every file under `folder`, relative to it.
  private func files(_ folder: TemporaryFolder) -> Set<String> {
    let enumerator = FileManager.default.enumerator(atPath: folder.path)
    var result = Set<String>()
    while let path = enumerator?.nextObject() as? String {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: folder.file(path), isDirectory: &isFolder), !isFolder.boolValue {
        result.insert(path)
      }
    }
    return result
  }

  @Test func installPutsEverythingInPlaceAndUninstallTakesExactlyThatAway() throws {
    try Binaries.check()
    let folder = try TemporaryFolder()
    // Files of someone else's in the same folders must survive the uninstall.
    try FileManager.default.createDirectory(atPath: folder.file("prefix/bin"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: folder.file("units"), withIntermediateDirectories: true)
    _ = try folder.write("prefix/bin/other", "#!/bin/sh\n")
    _ = try folder.write("units/other.service", "[Service]\nExecStart=/bin/true\n")

    let install = try make("install", folder)
    #expect(install.status == 0, "\(install.stderr)")
    #expect(install.stdout.contains("systemctl --user enable --now badged.socket"))
    #expect(files(folder) == Set(Self.installed + ["prefix/bin/other", "units/other.service"]))

    let mode = try FileManager.default.attributesOfItem(atPath: folder.file("prefix/bin/badgectl"))[.posixPermissions] as? Int
    #expect(mode == 0o755)
    #expect(try run(folder.file("prefix/bin/badgectl"), ["--version"]).stdout.hasPrefix("badgectl "))
    let service = try String(contentsOfFile: folder.file("units/badged.service"), encoding: .utf8)
    #expect(service.contains("\nExecStart=\(folder.file("prefix/bin/badged"))\n"))
    #expect(!service.contains("@bindir@"))
    let completion = try String(contentsOfFile: folder.file("prefix/share/bash-completion/completions/badgectl"), encoding: .utf8)
    #expect(completion == (try badgectl(["--generate-completion", "bash"], socket: nil)).stdout)

    // The installed units pass systemd's checks, with the installed man pages for Documentation=.
    let runtime = folder.file("run")
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    let verify = try run(
      "/usr/bin/systemd-analyze", ["--user", "verify", folder.file("units/badged.service"), folder.file("units/badged.socket")],
      environment: ["XDG_RUNTIME_DIR": runtime, "MANPATH": folder.file("prefix/share/man")])
    #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify.stderr)")

    let uninstall = try make("uninstall", folder)
    #expect(uninstall.status == 0, "\(uninstall.stderr)")
    #expect(files(folder) == ["prefix/bin/other", "units/other.service"])
  }

  /// The installed unit's exposure in `systemd-analyze security --offline=true --user`, on its
  /// own and with the opt-in drop-in enabled as badged(1) says (renamed to sandbox.conf).
  /// 5.9 is all a user manager can enforce without a user namespace (see badged.service).
  @Test func theInstalledUnitScores5Point9AndWithTheSandbox0Point8() throws {
    try Binaries.check()
    let folder = try TemporaryFolder()
    let install = try make("install", folder)
    #expect(install.status == 0, "\(install.stderr)")
    let runtime = folder.file("run")
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    let units = folder.file("units")

    let plain = try ServiceUnit.exposure(of: "badged.service", unitPath: units, runtime: runtime)
    #expect(plain.score == 5.9, "\(plain.report)")
    #expect(plain.report.contains("✓ SystemCallFilter=~@privileged"))

    try FileManager.default.moveItem(
      atPath: folder.file("units/badged.service.d/sandbox.conf.disabled"), toPath: folder.file("units/badged.service.d/sandbox.conf"))
    let sandboxed = try ServiceUnit.exposure(of: "badged.service", unitPath: units, runtime: runtime)
    #expect(sandboxed.score == 0.8, "\(sandboxed.report)")
    #expect(sandboxed.report.contains("✓ PrivateUsers="))

    // The sandboxed unit still verifies without a warning.
    let verify = try run(
      ServiceUnit.analyze, ["--user", "verify", folder.file("units/badged.service")],
      environment: ["XDG_RUNTIME_DIR": runtime, "MANPATH": folder.file("prefix/share/man"), "SYSTEMD_UNIT_PATH": units + ":"])
    #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify.stderr)")
    #expect(try make("uninstall", folder).status == 0)
    #expect(!FileManager.default.fileExists(atPath: folder.file("units/badged.service.d")))
  }
}
