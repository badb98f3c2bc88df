import Foundation
import Testing

/// A mirror cut off by its link going down (noticed through the keepalive, not a closed
/// socket): it clears what it saw while the owner counts on; once the link is back, every
/// machine shows exactly what came after what the mirror saw.
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
}
