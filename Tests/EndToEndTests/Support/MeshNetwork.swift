import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Machines and their broker for one test, each in a network namespace of its own: the broker
/// listens on an address of its namespace's loopback, and each machine reaches it over a veth
/// pair of its own (a /30 each), through a route to that one address. No namespace has a
/// default route and none is the host's, so a cut link gives "Network is unreachable" in the
/// machine and no packet leaves the host (from the host's own namespace, a cut link would send
/// them to its default route instead).
///
/// The namespaces are named `bdt-<pid>-<n>-<role>`, so two test processes (or two networks of
/// one) never share one; they go, with the veths in them, when the network does. Needs root.
final class MeshNetwork {
  /// The broker's address, on its namespace's `lo`; every machine has a route to it.
  static let brokerAddress = "10.231.255.1"

  let broker: Broker
  private let namespaces: Namespaces
  private var joined = 0

  /// `homeAssistantHosts`: the broker's (`Broker`); `brokerSettings`: more lines of its mosquitto.conf.
  init(homeAssistantHosts: [String] = [], brokerSettings: [String] = []) throws {
    try Self.requireRoot()
    Namespaces.leftoversRemoved
    namespaces = Namespaces(tag: "bdt-\(getpid())-\(Self.nextNumber())")
    let brokerNamespace = try namespaces.add("broker")
    try ip(["-n", brokerNamespace, "addr", "add", "\(Self.brokerAddress)/32", "dev", "lo"])
    broker = try Broker(
      placement: Broker.Placement(namespace: brokerNamespace, address: Self.brokerAddress),
      settings: brokerSettings, homeAssistantHosts: homeAssistantHosts)
  }

  /// Stops the broker first: its namespace is then empty, and goes with its name.
  deinit { broker.stop() }

  /// A new machine's namespace, joined to the broker's by a veth pair: `uplink` on the
  /// machine's side (10.231.<n>.1/30), `to-<n>` on the broker's (10.231.<n>.2/30).
  func join(_ name: String) throws -> NetworkHost {
    joined += 1
    return try NetworkHost.link(
      try namespaces.add(name), number: joined, to: broker.placement!.namespace, remote: Self.brokerAddress)
  }

  /// The suites run as root (CI does): only root makes namespaces. Anyone else gets this
  /// failure, never a skipped test.
  static func requireRoot() throws {
    guard geteuid() == 0 else {
      throw TestFailure(
        "the tests of several machines must run as root: they put each machine and the broker in a network "
          + "namespace of its own (ip netns); CI runs them as root"
      )
    }
  }

  private static let counter = Mutex(0)

  /// A number no other network of this process has, for its namespaces' names.
  static func nextNumber() -> Int {
    counter.withLock {
      $0 += 1
      return $0
    }
  }
}

/// One machine's namespace and its link to the broker's (or a mail server's).
struct NetworkHost {
  static let uplink = "uplink"
  let namespace: String
  let number: Int
  let brokerNamespace: String
  /// The address the machine reaches through the link: the broker's, or a mail server's.
  var remoteAddress = MeshNetwork.brokerAddress

  /// Joins `namespace` to `remoteNamespace` by a veth pair: `uplink` on the machine's side
  /// (10.231.<number>.1/30), `to-<number>` on the other (10.231.<number>.2/30), with the route to
  /// `remote`, an address of the other namespace.
  static func link(_ namespace: String, number: Int, to remoteNamespace: String, remote: String) throws -> NetworkHost {
    let host = NetworkHost(
      namespace: namespace, number: number, brokerNamespace: remoteNamespace, remoteAddress: remote)
    try ip([
      "link", "add", uplink, "netns", namespace, "type", "veth", "peer", "name", host.brokerEnd, "netns",
      remoteNamespace,
    ])
    try ip(["-n", namespace, "addr", "add", "\(host.address)/30", "dev", uplink])
    try ip(["-n", remoteNamespace, "addr", "add", "\(host.gateway)/30", "dev", host.brokerEnd])
    try ip(["-n", remoteNamespace, "link", "set", host.brokerEnd, "up"])
    try host.heal()
    return host
  }

  var address: String { "10.231.\(number).1" }
  /// The broker's end of the pair, through which the machine reaches the broker's address.
  var gateway: String { "10.231.\(number).2" }
  var brokerEnd: String { "to-\(number)" }

  /// What runs a program in this namespace.
  var launcher: [String] { ["ip", "netns", "exec", namespace] }

  /// Sets the machine's end of the link down: a partition. Established connections notice only
  /// through their keepalive; new ones fail at once ("Network is unreachable").
  func cut() throws {
    try ip(["-n", namespace, "link", "set", Self.uplink, "down"])
  }

  /// Sets the link up again, with the route to the far address (which went with the link).
  func heal() throws {
    try ip(["-n", namespace, "link", "set", "lo", "up"])
    try ip(["-n", namespace, "link", "set", Self.uplink, "up"])
    try ip(["-n", namespace, "route", "replace", "\(remoteAddress)/32", "via", gateway])
  }
}

/// The namespaces of one network, deleted with it (a veth goes with its namespace).
final class Namespaces {
  let tag: String
  private var names: [String] = []

  init(tag: String) { self.tag = tag }

  deinit {
    for name in names.reversed() { _ = try? run("ip", ["netns", "del", name]) }
  }

  /// Adds `<tag>-<role>`, with `lo` up.
  func add(_ role: String) throws -> String {
    let name = "\(tag)-\(role)"
    try ip(["netns", "add", name])
    names.append(name)
    try ip(["-n", name, "link", "set", "lo", "up"])
    return name
  }

  /// Deletes, before this process makes its first, the namespaces of test processes that ended
  /// without deleting theirs (killed), and any named after this process (an earlier one that
  /// had its id).
  static let leftoversRemoved: Void = {
    guard let listing = try? run("ip", ["netns", "list"]) else { return }
    for line in listing.stdout.split(separator: "\n") {
      let name = String(line.split(separator: " ")[0])
      let parts = name.split(separator: "-")
      guard parts.count >= 4, parts[0] == "bdt", let pid = pid_t(parts[1]) else { continue }
      if pid == getpid() || (kill(pid, 0) != 0 && errno == ESRCH) { _ = try? run("ip", ["netns", "del", name]) }
    }
  }()
}

/// Runs `ip` with `arguments`; throws with its message when it fails.
func ip(_ arguments: [String]) throws {
  let result = try run("ip", arguments)
  guard result.status == 0 else {
    throw TestFailure("ip \(arguments.joined(separator: " ")) failed: \(result.stderr)")
  }
}
