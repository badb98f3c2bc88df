import BadgeSystem
import CLinux
import Glibc
import Testing

/// The loop's poll set: `struct epoll_event` as Swift imports it, and every ready descriptor
/// read back from the turn's one `epoll_wait`, with its events (sd-event's own aside).
@Suite struct PollSetTests {
  /// glibc packs `struct epoll_event` on x86-64 (12 bytes, the data at offset 4, as the
  /// kernel's own layout there); Swift imports that layout, so an array of them lines up with
  /// what `epoll_wait` writes.
  @Test func epollEventIsImportedWithItsLayout() {
    #if arch(x86_64)
      #expect(MemoryLayout<epoll_event>.size == 12)
      #expect(MemoryLayout<epoll_event>.stride == 12)
      #expect(MemoryLayout<epoll_event>.offset(of: \epoll_event.data) == 4)
    #else
      #expect(MemoryLayout<epoll_event>.offset(of: \epoll_event.data) == 8)
    #endif
  }

  @Test func everyReadyDescriptorComesBackWithItsEvents() throws {
    let loop = try EventLoop()
    let pairs = (0..<5).map { _ in rawSocketPair() }
    defer {
      for (a, b) in pairs {
        a.close()
        b.close()
      }
    }
    var ready: [CInt: IOEvents] = [:]
    var count = 0
    var set: PollSet?
    set = try PollSet(loop: loop) { count = set!.ready { fd, events in ready[fd] = events } }
    for (a, _) in pairs { try set!.add(a, events: .readable) }
    for (_, b) in pairs[1...3] { _ = try [UInt8(ascii: "x")].withUnsafeBytes { try b.write($0) } }
    set!.modify(pairs[4].0, events: .writable)
    set!.remove(pairs[3].0)

    #expect(try loop.runOnce(timeout: 0))
    #expect(count == 3)
    #expect(Set(ready.keys) == [pairs[1].0.rawValue, pairs[2].0.rawValue, pairs[4].0.rawValue])
    #expect(ready[pairs[1].0.rawValue] == .readable)
    #expect(ready[pairs[2].0.rawValue] == .readable)
    #expect(ready[pairs[4].0.rawValue] == .writable)
  }
}
