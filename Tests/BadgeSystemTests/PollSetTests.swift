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
    try set!.modify(pairs[4].0, events: .writable)
    try set!.remove(pairs[3].0)

    #expect(try loop.runOnce(timeout: 0))
    #expect(count == 3)
    #expect(Set(ready.keys) == [pairs[1].0.rawValue, pairs[2].0.rawValue, pairs[4].0.rawValue])
    #expect(ready[pairs[1].0.rawValue] == .readable)
    #expect(ready[pairs[2].0.rawValue] == .readable)
    #expect(ready[pairs[4].0.rawValue] == .writable)
  }

  /// A descriptor the set does not hold, or that is not open, is the caller's mistake: a
  /// failed precondition, never passed over in silence (as the results of `epoll_ctl` once
  /// were), nor thrown. Each runs in a process of its own, which the precondition ends.
  @Test func changingADescriptorNotInTheSetStopsTheProcess() async {
    await #expect(processExitsWith: .failure) { Self.make { set, fd in try set.modify(fd, events: .writable) } }
  }

  @Test func removingADescriptorNotInTheSetStopsTheProcess() async {
    await #expect(processExitsWith: .failure) { Self.make { set, fd in try set.remove(fd) } }
  }

  @Test func watchingAClosedDescriptorStopsTheProcess() async {
    await #expect(processExitsWith: .failure) {
      Self.make { set, fd in
        fd.close()
        try set.add(fd, events: .readable)
      }
    }
  }

  @Test func watchingADescriptorTwiceStopsTheProcess() async {
    await #expect(processExitsWith: .failure) {
      Self.make { set, fd in
        try set.add(fd, events: .readable)
        try set.add(fd, events: .writable)
      }
    }
  }

  /// Makes `mistake` with a new poll set and a socket it does not hold; a mistake that throws,
  /// or is let pass, ends the process with success.
  static func make(_ mistake: (PollSet, FileDescriptor) throws -> Void) {
    do {
      let loop = try EventLoop()
      let set = try PollSet(loop: loop)
      let (fd, _) = rawSocketPair()
      try withExtendedLifetime(loop) { try mistake(set, fd) }
    } catch {}
    exit(0)
  }
}
