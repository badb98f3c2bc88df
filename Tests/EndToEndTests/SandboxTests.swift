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

    let daemon = try DaemonProcess(folder: folder, wrapper: wrapper)
    let client = try daemon.client()
    #expect(try client.request("INCR mail 3").map(withoutPulse) == ["STATE mail count=3 label=3 dot=0 muted=0 seq=1 badge=count dnd=off unseen=3", "OK"])
    #expect(try client.request("SET chat 7").map(withoutPulse) == ["STATE chat count=7 label=7 dot=0 muted=0 seq=2 badge=count dnd=off unseen=7", "OK"])
    #expect(daemon.stop() == 0, "\(daemon.log)")
    // Its files belong to nobody outside the namespace: root inside mapped to it.
    let owner = try FileManager.default.attributesOfItem(atPath: daemon.stateFile("snapshot"))[.ownerAccountID] as? Int
    #expect(owner == 65534)

    let again = try DaemonProcess(folder: folder, wrapper: wrapper)
    #expect(try again.client().request("LIST").map(withoutPulse) == [
      "STATE chat count=7 label=7 dot=0 muted=0 seq=2 badge=count dnd=off unseen=7", "STATE mail count=3 label=3 dot=0 muted=0 seq=1 badge=count dnd=off unseen=3", "OK",
    ])
    #expect(again.stop() == 0, "\(again.log)")
  }
}
