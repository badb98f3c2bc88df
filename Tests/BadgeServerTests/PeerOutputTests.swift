import Testing

@testable import BadgeServer

/// What a peer's output buffer keeps once it is sent, in whole or in part.
@Suite struct PeerOutputTests {
  @Test func aSmallBufferIsKeptWhenItDrains() {
    let peer = Peer(id: 1, pid: nil)
    peer.output.append(contentsOf: [UInt8](repeating: 0x41, count: 100))
    let capacity = peer.output.capacity
    peer.outputOffset = 100
    #expect(peer.outputSent() == 0, "nothing freed")
    #expect(peer.output.isEmpty)
    #expect(peer.output.capacity == capacity, "reused next turn")
    #expect(peer.outputOffset == 0)
  }

  @Test func aBufferLargerThanTheKeptCapacityIsFreedAndCounted() {
    let peer = Peer(id: 1, pid: nil)
    peer.output = [UInt8](repeating: 0x41, count: 40_000)
    let capacity = peer.output.capacity
    #expect(capacity > Peer.keptOutputCapacity)
    peer.outputOffset = 40_000
    #expect(peer.outputSent() == capacity)
    #expect(peer.output.capacity == 0)
    #expect(peer.pendingOutput == 0)
  }

  @Test func sentBytesAreDroppedOnceTheyOutnumberThoseWaiting() {
    let peer = Peer(id: 1, pid: nil)
    peer.output = (0..<30_000).map { UInt8(truncatingIfNeeded: $0) }
    peer.outputOffset = 14_000  // fewer sent than waiting: left as they are
    peer.outputPartlySent()
    #expect(peer.outputOffset == 14_000)
    #expect(peer.output.count == 30_000)
    peer.outputOffset = 16_000
    peer.outputPartlySent()
    #expect(peer.outputOffset == 0)
    #expect(peer.output.count == 14_000)
    #expect(peer.output.first == UInt8(truncatingIfNeeded: 16_000), "the waiting bytes, in order")
    peer.outputOffset = 4000  // a few sent bytes are not worth a move
    peer.outputPartlySent()
    #expect(peer.outputOffset == 4000)
  }
}
