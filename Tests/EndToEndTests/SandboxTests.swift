import Foundation
import Testing

/// badged inside what the opt-in drop-in badged.service.d/sandbox.conf sets up, built by hand
/// as an unprivileged user would get it (systemd is not running here): `nobody` makes a user
/// namespace in which it is root (PrivateUsers=), with mount, network, IPC and host name
/// namespaces of its own; the file system read-only but for the daemon's folder
/// (ProtectSystem=strict, ReadWritePaths=), empty /tmp and /var/tmp (PrivateTmp=), the home
/// folders hidden (ProtectHome=), and an empty capability bounding set (CapabilityBoundingSet=),
/// then the unit's seccomp rules (seccomp-run, a refused call kills).
///
/// The programs come in as a package installs them, not from the checkout: a checkout under
/// /tmp or a home folder is hidden in there (and nobody may not enter a home folder). The
/// test run's installed copy (`InstalledBinaries`: the programs and the Swift runtime they
/// load) is mounted read-only at /usr/local, and the daemon runs from it.
@Suite struct SandboxTests {
  /// Run by `sh -c` in the new namespaces, with the daemon's folder as $1, the installed copy
  /// as $2 and badged's command after them.
  static let setUp = """
    set -e
    folder="$1"; installed="$2"; shift 2
    mount -n --bind "$installed" /usr/local
    mount -n -o remount,bind,ro /usr/local
    mount -n -t tmpfs -o mode=1777 tmpfs /var/tmp
    mkdir /var/tmp/keep
    mount -n --bind "$folder" /var/tmp/keep
    mount -n -t tmpfs -o mode=1777 tmpfs /tmp
    mkdir -p "$folder"
    mount -n --move /var/tmp/keep "$folder"
    mount -n -t tmpfs -o mode=1777 tmpfs /var/tmp
    mount -n -o remount,bind,ro /
    for home in /root /home; do mount -n -t tmpfs -o ro,mode=0755 tmpfs "$home"; done
    if touch /usr/badged-probe 2>/dev/null || touch /tmp/../etc/badged-probe 2>/dev/null \
      || touch /usr/local/badged-probe 2>/dev/null; then
      echo "the file system is writable" >&2; exit 1
    fi
    exec setpriv --bounding-set -all --inh-caps -all --no-new-privs "$@"
    """

  /// The installed badgectl run as nobody (outside the sandbox).
  static func asNobody(_ arguments: [String], socket: String) throws -> String {
    let installed = try InstalledBinaries.copy()
    let result = try run(
      "/usr/bin/setpriv",
      ["--reuid", "nobody", "--regid", "nogroup", "--clear-groups", installed.path("badgectl")] + arguments,
      environment: installed.environment.merging(["BADGED_SOCKET": socket]) { $1 })
    return result.status == 0 ? result.stdout : "status \(result.status): \(result.stderr)"
  }

  /// The files `pid` has mapped (its program and the libraries it loaded), by their paths.
  static func mappedFiles(_ pid: Int32) throws -> Set<String> {
    // Read to its end: the file reports no size, and reading by the size stops early.
    let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(pid)/maps"))
    defer { try? file.close() }
    let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
    // `address perms offset device inode path`: only the path has a slash.
    return Set(maps.split(separator: "\n").compactMap { line in line.firstIndex(of: "/").map { String(line[$0...]) } })
  }

  @Test func badgedServesAndKeepsItsStateInsideTheSandbox() throws {
    let installed = try InstalledBinaries.copy()
    let inside = InstalledBinaries.inSandbox
    let folder = try TemporaryFolder()
    let allow = try ServiceUnit.writeAllowList(in: folder)
    // nobody owns the daemon's folder, as the user owns their state folder.
    #expect(chown(folder.path, 65534, 65534) == 0)
    let wrapper = [
      "/usr/bin/setpriv", "--reuid", "nobody", "--regid", "nogroup", "--clear-groups",
      "/usr/bin/unshare", "--user", "--map-root-user", "--mount", "--net", "--ipc", "--uts", "--",
      "/bin/sh", "-c", Self.setUp, "sh", folder.path, installed.prefix,
      inside.path("seccomp-run"), "--allow", allow, "--kill",
    ]

    let config = "[daemon]\npulse_ms = 0\n"
    let daemon = try DaemonProcess(
      folder: folder, config: config, wrapper: wrapper, environment: inside.environment,
      executable: inside.path("badged"))
    // It runs from what was carried in: its program and the Swift runtime from /usr/local,
    // everything else from the system's library folders; nothing from the checkout's build or
    // the toolchain.
    let mapped = try Self.mappedFiles(daemon.pid)
    #expect(mapped.contains(inside.path("badged")), "\(mapped)")
    #expect(mapped.contains(inside.prefix + "/lib/libswiftCore.so"), "\(mapped)")
    let elsewhere = mapped.filter { file in
      !file.hasPrefix(inside.prefix + "/") && !InstalledBinaries.systemLibraryFolders.contains(where: file.hasPrefix)
    }
    #expect(elsewhere.isEmpty, "mapped from outside the installed copy and the system: \(elsewhere)")
    // Root outside is no user of the namespace (PrivateUsers= maps only the user's own ID):
    // the daemon's peer check turns it away.
    let stranger = try daemon.client()
    #expect(try stranger.readLine()?.hasPrefix("ERR denied") == true)
    // nobody, whom the namespace maps to its root, is the daemon's own user and is served.
    #expect(try Self.asNobody(["incr", "mail", "3"], socket: daemon.socket) == "mail 3\n")
    #expect(try Self.asNobody(["set", "chat", "7"], socket: daemon.socket) == "chat 7\n")
    #expect(daemon.stop() == 0, "\(daemon.log)")
    // Its files belong to nobody outside the namespace: root inside mapped to it.
    let owner = try FileManager.default.attributesOfItem(atPath: daemon.stateFile("snapshot"))[.ownerAccountID] as? Int
    #expect(owner == 65534)

    let again = try DaemonProcess(
      folder: folder, config: config, wrapper: wrapper, environment: inside.environment,
      executable: inside.path("badged"))
    #expect(try Self.asNobody(["list"], socket: again.socket) == "chat 7\nmail 3\n")
    #expect(again.stop() == 0, "\(again.log)")
  }

  /// badged-sources inside the same sandbox, as its own drop-in builds it but for the home
  /// folder (here the writable folder stands for the mail folder its ReadWritePaths= keeps
  /// writable), beside badged in a sandbox of its own: it runs from the installed copy and the
  /// system's libnotmuch, counts a Maildir, and marks read what a click showed, renaming files
  /// in the one writable folder, under the unit's seccomp rules with a refused call killing it.
  /// Only nobody may talk to the daemon, so the test reads and clicks with the installed
  /// badgectl run as nobody.
  @Test func badgedSourcesCountsAndMarksReadInsideTheSandbox() throws {
    let installed = try InstalledBinaries.copy()
    let inside = InstalledBinaries.inSandbox
    let folder = try TemporaryFolder()
    var maildir = try TestMaildir(in: folder)
    try maildir.deliver()
    try maildir.place(flags: "")
    let config = try folder.write(
      "badged.conf",
      "[daemon]\npulse_ms = 0\n\n[source.inbox]\nkind = maildir\npath = \(maildir.root)\non_clear = mark-read\n")
    let allow = try ServiceUnit.writeAllowList(in: folder)
    // nobody owns the folder and the Maildir in it, as the user owns their mail.
    #expect(try run("/bin/chown", ["-R", "nobody:nogroup", folder.path]).status == 0)
    let wrapper = [
      "/usr/bin/setpriv", "--reuid", "nobody", "--regid", "nogroup", "--clear-groups",
      "/usr/bin/unshare", "--user", "--map-root-user", "--mount", "--ipc", "--uts", "--",
      "/bin/sh", "-c", Self.setUp, "sh", folder.path, installed.prefix,
      inside.path("seccomp-run"), "--allow", allow, "--kill",
    ]
    let daemon = try DaemonProcess(
      folder: folder, arguments: ["--config", config], wrapper: wrapper, environment: inside.environment,
      executable: inside.path("badged"))
    let sources = try SourcesProcess(
      folder: folder, config: config, socket: daemon.socket, wrapper: wrapper, environment: inside.environment,
      executable: inside.path("badged-sources"))
    let context = { "badged-sources:\n\(sources.log)\nbadged:\n\(daemon.log)" }
    /// The channel's count and total as nobody's badgectl reads them, once its source says it
    /// is fresh.
    func state() throws -> (count: Int, total: Int)? {
      let line = try Self.asNobody(["get", "inbox", "--format", "json"], socket: daemon.socket)
      guard let object = try? jsonObject(line), object["source"] as? String == "inbox",
        object["stale"] as? Bool == false, let count = object["count"] as? Int, let total = object["total"] as? Int
      else { return nil }
      return (count, total)
    }

    #expect(try waitUntil { try state()?.count == 2 }, "\(context())")
    let mapped = try Self.mappedFiles(sources.pid)
    #expect(mapped.contains(inside.path("badged-sources")), "\(mapped)")
    try maildir.deliver()
    #expect(try waitUntil { try state()?.count == 3 }, "\(context())")
    let shown = try #require(try state()).total
    let clear = try Self.asNobody(["clear", "inbox", "--upto", String(shown)], socket: daemon.socket)
    #expect(!clear.hasPrefix("status "), "\(clear)")
    #expect(try waitUntil { try state()?.count == 0 }, "\(context())")
    #expect(try maildir.unread() == 0)
    #expect(sources.stop() == 0, "\(context())")
    #expect(daemon.stop() == 0, "\(context())")
  }
}
