import Foundation
import TestSupport
import Testing

/// `make deb` packs the release binaries (`make test` builds them first) into a Debian package
/// that lintian accepts, that installs with `dpkg -i` on this machine (the tests run as root),
/// runs from its installed files, and purges without leaving anything behind.
@Suite struct PackageTests {
  /// The static release binaries `make release` builds.
  static let release = Repository.path(".build/release")
  /// The programs the package installs, as `make release` names them.
  static let programs = [
    "badged", "badgectl", "badgectl-session", "badged-mqtt", "badged-sources", "badged-tray",
    "badged-web",
  ]

  @Test func theDebianPackageBuildsPassesLintianInstallsRunsAndPurgesCleanly() throws {
    for name in Self.programs
    where !FileManager.default.isExecutableFile(atPath: "\(Self.release)/\(name)") {
      throw TestFailure("\(Self.release)/\(name) is missing: run 'make release' before 'swift test' (make test does)")
    }
    let folder = try TemporaryFolder()
    let build = try run(
      "make", ["-s", "deb", "BINDIR_SOURCE=\(Self.release)", "DEBDIR=\(folder.path)"],
      currentDirectory: Repository.root.path)
    let version = try run("\(Self.release)/badged", ["--version"]).stdout.replacingOccurrences(of: "badged ", with: "")
      .trimmingCharacters(in: .newlines)
    let architecture = try run("dpkg", ["--print-architecture"]).stdout.trimmingCharacters(in: .newlines)
    let package = folder.file("badged_\(version)_\(architecture).deb")
    #expect(build.status == 0 && build.stdout == package + "\n", "\(build.stdout)\(build.stderr)")

    try checkFields(package, version: version, architecture: architecture)
    let lint = try run("lintian", ["--fail-on", "error,warning", package])
    #expect(lint.status == 0 && !lint.stdout.contains("E: ") && !lint.stdout.contains("W: "), "\(lint.stdout)")

    try PackageLock.hold { try installRunAndPurge(package, version: version) }
  }

  /// Depends names the package of every library the binaries load, Built-Using what is linked
  /// into the static badgectl, and Installed-Size is the size of what the package installs, as
  /// dpkg-gencontrol counts it.
  private func checkFields(_ package: String, version: String, architecture: String) throws {
    func field(_ name: String) throws -> String {
      try run("dpkg-deb", ["--field", package, name]).stdout.trimmingCharacters(in: .newlines)
    }
    #expect(try field("Package") == "badged")
    #expect(try field("Version") == version)
    #expect(try field("Architecture") == architecture)

    // The packages owning the libraries the binaries name (DT_NEEDED), without the loader.
    var owners = Set<String>()
    for name in Self.programs {
      let dynamic = try run("objdump", ["-p", "\(Self.release)/\(name)"]).stdout
      for match in dynamic.matches(of: /NEEDED\s+(\S+)/) where !match.1.hasPrefix("ld-linux") {
        let owner = try run("dpkg", ["-S", "*/\(match.1)"]).stdout
        owners.formUnion(owner.split(separator: "\n").compactMap { $0.split(separator: ":").first.map(String.init) })
      }
    }
    let depends = try field("Depends").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(Set(depends.compactMap { $0.split(separator: " ").first.map(String.init) }) == owners)
    // badged-sources counts notmuch databases through libnotmuch.
    #expect(owners.contains("libnotmuch5"), "\(owners)")
    // badged-tray draws with cairo and pango.
    #expect(owners.isSuperset(of: ["libcairo2", "libpango-1.0-0", "libpangocairo-1.0-0"]), "\(owners)")
    // badged-web serves HTTP with libmicrohttpd.
    #expect(owners.contains("libmicrohttpd12"), "\(owners)")
    #expect(depends.allSatisfy { $0.contains("(>= ") }, "unversioned: \(depends)")
    // badgectl is static: Built-Using names the source packages of the C library and of
    // libstdc++ inside it, with the versions installed here (what it was linked with).
    let glibc = try run("dpkg-query", ["-W", "-f=${source:Package} (= ${source:Version})", "libc6-dev"]).stdout
    let builtUsing = try field("Built-Using")
    let sources = Set(builtUsing.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    #expect(sources.count == 2 && sources.contains(glibc), "\(builtUsing)")
    #expect(sources.contains { $0.hasPrefix("gcc-") && $0.contains(" (= ") }, "\(builtUsing)")

    // One KiB per started KiB of each file, one per folder, and one for the control folder
    // (DEBIAN), which dpkg-gencontrol counts as Debian's own tools always do.
    let listing = try run("dpkg-deb", ["--contents", package]).stdout.split(separator: "\n")
    let size = listing.reduce(1) { total, line in
      let columns = line.split(separator: " ", omittingEmptySubsequences: true)
      let bytes = Int(columns[2]) ?? 0
      return total + (line.hasPrefix("d") ? 1 : (bytes + 1023) / 1024)
    }
    #expect(try field("Installed-Size") == String(size))
  }

  /// Installs `package`, runs what it installed, purges it, and checks that it left nothing.
  private func installRunAndPurge(_ package: String, version: String) throws {
    if try run("dpkg-query", ["-W", "-f=${Status}", "badged"]).stdout.contains("installed") {
      try dpkg(["--purge", "badged"])
    }
    let paths = try run("dpkg-deb", ["--contents", package]).stdout.split(separator: "\n")
      .compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).last.map { String($0.dropFirst()) } }
      .filter { $0 != "/" }
      .map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
    let existing = Set(paths.filter { FileManager.default.fileExists(atPath: $0) })
    #expect(!paths.isEmpty)

    try dpkg(["-i", package])
    #expect(try run("/usr/bin/badged", ["--version"]).stdout == "badged \(version)\n")
    #expect(try run("/usr/bin/badgectl", ["--version"]).stdout == "badgectl \(version)\n")
    #expect(try run("/usr/bin/badged-mqtt", ["--version"]).stdout == "badged-mqtt \(version)\n")
    #expect(try run("/usr/bin/badged-sources", ["--version"]).stdout == "badged-sources \(version)\n")
    #expect(try run("/usr/bin/badged-tray", ["--version"]).stdout == "badged-tray \(version)\n")
    #expect(try run("/usr/bin/badged-web", ["--version"]).stdout == "badged-web \(version)\n")
    // The page, where the installed badged-web looks for it (../share/badged/web beside it).
    for file in ["index.html", "app.js", "motion.js", "style.css", "manifest.webmanifest", "icon.svg"] {
      #expect(FileManager.default.fileExists(atPath: "/usr/share/badged/web/" + file), "\(file)")
    }
    // The tray's autostart entry is a conffile (it is under /etc), naming the installed program.
    let conffiles = try run("dpkg-query", ["-W", "-f=${Conffiles}", "badged"]).stdout
    #expect(conffiles.contains(" /etc/xdg/autostart/badged-tray.desktop "), "\(conffiles)")
    let entry = try String(contentsOfFile: "/etc/xdg/autostart/badged-tray.desktop", encoding: .utf8)
    #expect(entry.contains("\nExec=/usr/bin/badged-tray\n"))
    let daemon = try DaemonProcess(executable: "/usr/bin/badged")
    let ping = try run("/usr/bin/badgectl", ["ping"], environment: ["BADGED_SOCKET": daemon.socket])
    #expect(ping.status == 0, "\(ping.stderr)")
    try checkBadgectl()
    #expect(daemon.stop() == 0, "\(daemon.log)")
    // The installed units pass systemd's checks (ExecStart=/usr/bin/badged exists, and the
    // man pages of Documentation= are installed), and man finds the pages.
    let runtime = folder(daemon, "run")
    let verify = try run(
      "/usr/bin/systemd-analyze",
      [
        "--user", "verify", "/usr/lib/systemd/user/badged.service", "/usr/lib/systemd/user/badged.socket",
        "/usr/lib/systemd/user/badged-mqtt.service", "/usr/lib/systemd/user/badged-sources.service",
        "/usr/lib/systemd/user/badged-tray.service", "/usr/lib/systemd/user/badged-web.service",
      ],
      environment: ["XDG_RUNTIME_DIR": runtime])
    #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify.stderr)")
    #expect(try run("man", ["-w", "badged.conf"]).stdout == "/usr/share/man/man5/badged.conf.5.gz\n")
    #expect(try run("man", ["-w", "badged-mqtt"]).stdout == "/usr/share/man/man1/badged-mqtt.1.gz\n")
    #expect(try run("man", ["-w", "badged-sources"]).stdout == "/usr/share/man/man1/badged-sources.1.gz\n")
    #expect(try run("man", ["-w", "badged-tray"]).stdout == "/usr/share/man/man1/badged-tray.1.gz\n")
    #expect(try run("man", ["-w", "badged-web"]).stdout == "/usr/share/man/man1/badged-web.1.gz\n")

    try dpkg(["--purge", "badged"])
    let left = paths.filter { !existing.contains($0) && FileManager.default.fileExists(atPath: $0) }
    #expect(left.isEmpty, "left after the purge: \(left)")
    #expect(try run("dpkg-query", ["-W", "-f=${Status}", "badged"]).status != 0)
    let records = try FileManager.default.contentsOfDirectory(atPath: "/var/lib/dpkg/info").filter {
      $0.hasPrefix("badged.")
    }
    #expect(records.isEmpty, "dpkg still has \(records)")
  }

  /// The installed badgectl is one static executable, with no dynamic loader and no library
  /// to load (status bars spawn it every second); it hands `watch` to the installed
  /// badgectl-session, which refuses an option that does not fit the format as badgectl did.
  private func checkBadgectl() throws {
    let headers = try run("readelf", ["--program-headers", "--dynamic", "/usr/bin/badgectl"])
    #expect(headers.status == 0 && !headers.stdout.contains("INTERP") && !headers.stdout.contains("NEEDED"))
    #expect(headers.stdout.contains("LOAD"), "\(headers.stdout)")
    #expect(FileManager.default.isExecutableFile(atPath: "/usr/libexec/badged/badgectl-session"))
    let watch = try run("/usr/bin/badgectl", ["watch", "--big", "--format", "plain"])
    #expect(watch.status == 64 && watch.stderr.hasPrefix("Error: '--big' applies to --format term"), "\(watch.stderr)")
  }

  /// A new folder in the daemon's folder.
  private func folder(_ daemon: DaemonProcess, _ name: String) -> String {
    let path = daemon.folder.file(name)
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// Runs dpkg under the front-end lock `PackageLock` holds, as apt runs it.
  private func dpkg(_ arguments: [String]) throws {
    let result = try run("dpkg", arguments, environment: PackageLock.heldEnvironment)
    #expect(result.status == 0, "dpkg \(arguments.joined(separator: " ")): \(result.stderr)")
  }
}

/// Installing, running and purging the one system-wide package is done under dpkg's front-end
/// lock, the lock apt and dpkg take for any change of the installed packages: two test runs on
/// one machine (from two checkouts) take turns, and so does an apt-get of other work, where a
/// lock of the tests' own would have kept out only the other test run.
enum PackageLock {
  static let path = "/var/lib/dpkg/lock-frontend"

  /// What tells dpkg that its caller holds the front-end lock (apt sets it for the dpkg it runs).
  static let heldEnvironment = ["DPKG_FRONTEND_LOCKED": "1"]

  /// Runs `body` holding the lock, waiting for whoever holds it now. It is an `fcntl` lock,
  /// as dpkg and apt take it.
  static func hold<T>(_ body: () throws -> T) throws -> T {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o640)
    guard fd >= 0 else { throw TestFailure("cannot open \(path): errno \(errno)") }
    defer { close(fd) }
    var lock = flock()
    lock.l_type = Int16(F_WRLCK)
    lock.l_whence = Int16(SEEK_SET)
    while fcntl(fd, F_SETLKW, &lock) != 0 {
      guard errno == EINTR else { throw TestFailure("cannot take \(path): errno \(errno)") }
    }
    return try body()
  }
}
