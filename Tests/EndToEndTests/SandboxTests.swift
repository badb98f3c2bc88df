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

  /// Sends `lines` (then `QUIT`) as nobody, the user the daemon runs as outside its namespace
  /// (the peer check lets in only the daemon's own user, as PrivateUsers= maps the user to
  /// itself); every line of the replies.
  static func requests(_ socket: String, _ lines: [String]) throws -> [String] {
    let script = """
      import socket, sys
      s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
      s.sendall("".join(line + "\\n" for line in sys.argv[2:] + ["QUIT"]).encode())
      data = b""
      while chunk := s.recv(65536): data += chunk
      sys.stdout.write(data.decode())
      """
    let result = try run(
      "/usr/bin/setpriv",
      ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script, socket] + lines)
    guard result.status == 0 else { throw TestFailure("the client failed: \(result.stderr)") }
    return result.stdout.split(separator: "\n").map(String.init)
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

    let daemon = try DaemonProcess(folder: folder, wrapper: wrapper)
    #expect(try Self.requests(daemon.socket, ["INCR mail 3", "SET chat 7"]).map(withoutPulse) == [
      "STATE mail count=3 label=3 dot=0 muted=0 seq=1", "OK", "STATE chat count=7 label=7 dot=0 muted=0 seq=2", "OK", "OK bye",
    ])
    // Another user (root here, outside the namespace) is refused.
    #expect(try daemon.client().readLine()?.hasPrefix("ERR denied ") == true)
    #expect(daemon.stop() == 0, "\(daemon.log)")
    // Its files belong to nobody outside the namespace: root inside mapped to it.
    let owner = try FileManager.default.attributesOfItem(atPath: daemon.stateFile("snapshot"))[.ownerAccountID] as? Int
    #expect(owner == 65534)

    let again = try DaemonProcess(folder: folder, wrapper: wrapper)
    #expect(try Self.requests(again.socket, ["LIST"]).map(withoutPulse) == [
      "STATE chat count=7 label=7 dot=0 muted=0 seq=2", "STATE mail count=3 label=3 dot=0 muted=0 seq=1", "OK", "OK bye",
    ])
    #expect(again.stop() == 0, "\(again.log)")
  }
}
