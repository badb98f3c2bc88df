import BadgeCore
import BadgeLog
import BadgeSystem
import Glibc
import Testing

@testable import BadgeDaemon

/// What a closed connection reports to the heap trimmer.
@Suite struct OutboxTests {
  /// A watcher that sent one line and read everything frees a 256-byte input buffer and its
  /// footprint: 241 of them leaving (1 MiB / 4,352 bytes) make a trim due, 240 do not.
  @Test func closedConnectionsCountTheirFootprintTowardsATrim() throws {
    let loop = try EventLoop()
    let outbox = try Outbox(
      loop: loop, logger: Logger(level: .error, destination: .standardError(priorityPrefix: false)))
    var fds: [Int32] = [0, 0]
    #expect(socketpair(AF_UNIX, CInt(SOCK_STREAM.rawValue), 0, &fds) == 0)
    defer {
      close(fds[0])
      close(fds[1])
    }
    let connection = Connection(id: 1, fd: FileDescriptor(rawValue: fds[0]), pid: nil)
    #expect(connection.output.capacity == 0)
    #expect(connection.input.storageCapacity == 256)
    outbox.closed(connection)
    #expect(outbox.heap.pending == 256 + 4096)
    for _ in 1..<240 { outbox.closed(connection) }
    #expect(outbox.heap.pending == 240 * 4352)
    #expect(!outbox.heap.isScheduled, "1,044,480 bytes: below 1 MiB")
    outbox.closed(connection)
    #expect(outbox.heap.isScheduled)
  }
}
