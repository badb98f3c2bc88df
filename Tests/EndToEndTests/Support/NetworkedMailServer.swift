import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A `MailServer` in a network namespace of its own, listening on an address of that
/// namespace's loopback (which its certificate names), and a client namespace joined to it by a
/// veth pair, where the program under test runs (`client.launcher`; badged may stay on the
/// host: its socket is a Unix socket, which namespaces do not divide). `cut()` takes the link
/// down, as a lost Wi-Fi or a suspended router does: the client's established connections
/// notice only through their keepalive, new ones fail at once with "Network is unreachable".
///
/// No namespace has a default route and none is the host's (MeshNetwork says why); both go when
/// the server does. Needs root.
final class NetworkedMailServer {
  /// The server's address, on its namespace's `lo`; the client has a route to it.
  static let serverAddress = "10.232.255.1"

  let server: MailServer
  /// The client's namespace and its link to the server's.
  let client: NetworkHost
  private let namespaces: Namespaces

  init(users: [String] = [MailServer.user], oauth: Bool = false) throws {
    try MeshNetwork.requireRoot()
    Namespaces.leftoversRemoved
    namespaces = Namespaces(tag: "bdt-\(getpid())-\(MeshNetwork.nextNumber())")
    let serverNamespace = try namespaces.add("mail")
    try ip(["-n", serverNamespace, "addr", "add", "\(Self.serverAddress)/32", "dev", "lo"])
    client = try NetworkHost.link(
      try namespaces.add("client"), number: 1, to: serverNamespace, remote: Self.serverAddress)
    server = try MailServer(
      users: users, oauth: oauth,
      placement: MailServer.Placement(namespace: serverNamespace, address: Self.serverAddress))
  }

  /// Stops dovecot first: its namespace is then empty, and goes with its name.
  deinit { server.stop() }

  /// The source's `server` setting: IMAPS to the server's address.
  var url: String { "imaps://\(Self.serverAddress):\(server.port)" }

  /// Takes the client's end of the link down.
  func cut() throws { try client.cut() }

  /// Sets the link up again, with its route.
  func heal() throws { try client.heal() }
}
