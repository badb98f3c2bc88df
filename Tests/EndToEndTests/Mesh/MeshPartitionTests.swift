import Foundation
import Testing

/// A machine cut off by its link going down (noticed through the keepalive, not a closed
/// socket): a mirror clears what it saw while the owner counts on, or the owner counts on
/// while its mirrors write; once the link is back, every machine shows the same exact count.
@Suite struct MeshPartitionTests {
  @Test func aClearMadeWhileCutOffTakesOnlyWhatTheMirrorSaw() throws {
    let network = try MeshNetwork()
    let (desktop, mirrors) = try network.ownerAndMirrors(["laptop", "server"], count: 2)
    let (laptop, server) = (mirrors[0], mirrors[1])

    try laptop.cut()
    // Nothing closes the laptop's connection: its bridge notices the silence by the keepalive.
    try laptop.waitFor("mail", ["stale": "1"])
    #expect(
      laptop.bridgeLog.contains(
        "<4>Lost the connection to the broker \(network.broker.url): no answer within the keepalive; reconnecting."),
      "\(laptop.diagnostics)")
    for _ in 0..<4 { try desktop.request("INCR mail") }
    try server.waitFor("mail", ["count": "6", "total": "6", "stale": "0"])
    let cleared = try laptop.request("CLEAR mail")
    #expect(field(cleared[0], "count") == "0" && field(cleared[0], "pending") == "1", "\(cleared)")
    try laptop.heal()

    try desktop.waitFor("mail", ["count": "4", "total": "6"])
    for machine in [laptop, server] {
      try machine.waitFor("mail", ["count": "4", "total": "6", "owner": "desktop", "stale": "0", "pending": nil])
    }
  }

  /// The owner cut off: the broker notices its silence and sends its last will, so its mirrors
  /// show the channel stale; their writes meanwhile reach it once it is back, each once.
  @Test func anOwnerCutOffIsStaleOnItsMirrorsAndTakesTheirWritesOnceBack() throws {
    let network = try MeshNetwork()
    let (desktop, mirrors) = try network.ownerAndMirrors(["laptop", "server"], count: 2)
    let (laptop, server) = (mirrors[0], mirrors[1])
    try desktop.cut()
    for mirror in [laptop, server] { try mirror.waitFor("mail", ["count": "2", "stale": "1"]) }
    try desktop.request("INCR mail 3")
    try laptop.request("CLEAR mail")
    try server.request("INCR mail")
    try desktop.heal()
    // 2 and 3, cleared up to the 2 the laptop saw, and the server's 1, in either order.
    try desktop.waitFor("mail", ["count": "4", "total": "6"])
    for machine in [laptop, server] {
      try machine.waitFor("mail", ["count": "4", "total": "6", "owner": "desktop", "stale": "0", "pending": nil])
    }
  }
}
