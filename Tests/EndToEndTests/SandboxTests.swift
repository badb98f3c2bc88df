import Foundation
import Testing

/// badged inside what the opt-in drop-in badged.service.d/sandbox.conf sets up, built by hand
/// as an unprivileged user would get it (systemd is not running here): `nobody` makes a user
/// namespace in which it is root (PrivateUsers=), with mount, network, IPC and host name
/// namespaces of its own; the file system read-only but for the daemon's folder
/// (ProtectSystem=strict, ReadWritePaths=), empty /tmp and /var/tmp (PrivateTmp=), the home
/// folders hidden (ProtectHome=), and an empty capability bounding set (CapabilityBoundingSet=),
/// then the unit's seccomp rules (seccomp-run, a refused call kills).
@Suite struct SandboxTests {
  /// Run by `sh -c` in the new namespaces, with the folder as $1 and badged's command after it.
  static let setUp = """
    set -e
    folder="$1"; shift
    mount -n -t tmpfs -o mode=1777 tmpfs /var/tmp
    mkdir /var/tmp/keep
    mount -n --bind "$folder" /var/tmp/keep
    mount -n -t tmpfs -o mode=1777 tmpfs /tmp
    mkdir -p "$folder"
    mount -n --move /var/tmp/keep "$folder"
    mount -n -t tmpfs -o mode=1777 tmpfs /var/tmp
    mount -n -o remount,bind,ro /
    for home in /root /home; do mount -n -t tmpfs -o ro,mode=0755 tmpfs "$home"; done
    if touch /usr/badged-probe 2>/dev/null || touch /tmp/../etc/badged-probe 2>/dev/null; then
      echo "the file system is writable" >&2; exit 1
    fi
    exec setpriv --bounding-set -all --inh-caps -all --no-new-privs "$@"
    """

  /// badgectl run as nobody.
  static func asNobody(_ arguments: [String], socket: String) throws -> String {
    let result = try run(
      "/usr/bin/setpriv", ["--reuid", "nobody", "--regid", "nogroup", "--clear-groups", Binaries.badgectl.path] + arguments,
      environment: ["BADGED_SOCKET": socket])
    return result.status == 0 ? result.stdout : "status \(result.status): \(result.stderr)"
  }

  @Test func badgedServesAndKeepsItsStateInsideTheSandbox() throws {
    try Binaries.check()
    let folder = try TemporaryFolder()
    let allow = try ServiceUnit.writeAllowList(in: folder)
    // nobody owns the daemon's folder, as the user owns their state folder.
    #expect(chown(folder.path, 65534, 65534) == 0)
    let wrapper = [
      "/usr/bin/setpriv", "--reuid", "nobody", "--regid", "nogroup", "--clear-groups",
      "/usr/bin/unshare", "--user", "--map-root-user", "--mount", "--net", "--ipc", "--uts", "--",
      "/bin/sh", "-c", Self.setUp, "sh", folder.path,
      HardeningTests.seccompRun, "--allow", allow, "--kill",
    ]

    let config = "[daemon]\npulse_ms = 0\n"
    let daemon = try DaemonProcess(folder: folder, config: config, wrapper: wrapper)
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

    let again = try DaemonProcess(folder: folder, config: config, wrapper: wrapper)
    #expect(try Self.asNobody(["list"], socket: again.socket) == "chat 7\nmail 3\n")
    #expect(again.stop() == 0, "\(again.log)")
  }
}
